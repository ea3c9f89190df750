/// One segment of a ``Pattern``.
public enum PatternSegment: Sendable, Hashable {
    /// A fixed segment, percent-decoded (a pattern's `%2F` is the literal character `/` inside one segment).
    case literal(String)
    /// `:name`: exactly one segment, captured under `name`.
    case parameter(String)
    /// `*name`: one or more remaining segments, captured under `name`; only ever the last segment.
    case catchAll(String)

    /// The name of a parameter or catch-all; `nil` for a literal.
    public var parameterName: String? {
        switch self {
        case .literal: return nil
        case .parameter(let name), .catchAll(let name): return name
        }
    }

    /// The segment as written in a pattern's text: literals escape `% / ? #`, controls and spaces, and a leading
    /// `:` or `*` so that they read back as literals; non-ASCII stays raw.
    public var text: String {
        switch self {
        case .parameter(let name): return ":" + name
        case .catchAll(let name): return "*" + name
        case .literal(let value):
            let escaped = PercentCoding.encode(value, allowing: .patternLiteral, rawNonASCII: true)
            // Drop the marker's scalar, not its character: a combining mark after it belongs to the same
            // character and must stay.
            let rest = Substring(escaped.unicodeScalars.dropFirst())
            switch escaped.utf8.first {
            case UInt8(ascii: ":"): return "%3A" + rest
            case UInt8(ascii: "*"): return "%2A" + rest
            default: return escaped
            }
        }
    }
}
