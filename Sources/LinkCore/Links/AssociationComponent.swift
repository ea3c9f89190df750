/// One entry of the component list that both association files share (API.md §7 "Files for the operating
/// systems"): a path glob and its flags.
public struct AssociationComponent: Sendable, Hashable {
    /// The path glob: literal segments percent-encoded, parameters and a final catch-all as `?*`; `/` for the root.
    public var glob: String
    /// The route's name, else its pattern text (Apple's `comment`, Android's `comments`).
    public var comment: String
    /// Whether the route is case-insensitive (Apple's `caseSensitive: false`).
    public var caseInsensitive: Bool
    /// Whether the route is web only (`"exclude": true`).
    public var exclude: Bool

    public init(glob: String, comment: String, caseInsensitive: Bool = false, exclude: Bool = false) {
        self.glob = glob
        self.comment = comment
        self.caseInsensitive = caseInsensitive
        self.exclude = exclude
    }
}

extension AssociationComponent {
    /// The glob of `pattern`: `/` for the root; each literal segment percent-encoded as a location's path segment
    /// (UTF-8, upper-case hex; `/users/café` → `/users/caf%C3%A9`); each `:param` and a final `*rest` as `?*`
    /// (one or more characters: `*` would also match the empty string).
    /// A literal's `*` is written `%2A`: raw, the platforms would read it as a wildcard.
    public static func glob(of pattern: Pattern) -> String {
        if pattern.segments.isEmpty { return "/" }
        var output: [UInt8] = []
        output.reserveCapacity(pattern.description.utf8.count + 8)
        for segment in pattern.segments {
            output.append(UInt8(ascii: "/"))
            switch segment {
            case .literal(let text): PercentCoding.encode(text, allowing: AssociationComponent.literal, into: &output)
            case .parameter, .catchAll: output.append(contentsOf: "?*".utf8)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The path-segment characters minus `*`.
    static let literal = ByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()+,;=:@")
}
