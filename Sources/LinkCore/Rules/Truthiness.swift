extension JSONValue {
    /// JSON Logic truthiness.
    ///
    /// `null`, `false`, `0`, `""` and `[]` are falsy; everything else is truthy, including `"0"`, `[0]` and every
    /// object (even `{}`).
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let value): return value
        case .int(let value): return value != 0
        case .double(let value): return value != 0 && !value.isNaN
        case .string(let value): return !value.isEmpty
        case .array(let elements): return !elements.isEmpty
        case .object: return true
        }
    }
}
