import LinkCore

extension JSONValue {
    /// The nesting depth as the parser counts it: a scalar is 0, `[1]` is 1, `[[1]]` is 2.
    public var depth: Int {
        switch self {
        case .array(let elements): return 1 + (elements.map(\.depth).max() ?? 0)
        case .object(let object): return 1 + (object.values.map(\.depth).max() ?? 0)
        default: return 0
        }
    }

    /// Whether a double inside is infinite or NaN (those encode as `null`, so they do not read back).
    public var containsNonFinite: Bool {
        switch self {
        case .double(let d): return !d.isFinite
        case .array(let elements): return elements.contains(where: \.containsNonFinite)
        case .object(let object): return object.values.contains(where: \.containsNonFinite)
        default: return false
        }
    }
}
