/// A compiled JSON Logic expression: what ``Rule`` evaluates.
///
/// Operator names are resolved to ``Operator`` cases and static paths are split into segments when the tree is
/// built, so evaluation neither parses nor compares operator names.
indirect enum Node: Sendable {
    /// A constant: a scalar, `{}`, an array made only of constants, or the argument of `preserve`.
    case literal(JSONValue)
    /// An array literal with at least one operation among its elements.
    case array([Node])
    /// `var` with a path known at compile time, and the expression giving its default.
    case variable(DataPath, fallback: Node?)
    /// `val` with a path known at compile time.
    case value(ScopedPath)
    /// `exists` with a path known at compile time.
    case exists(ScopedPath)
    /// Any other operation, including `var`, `val` and `exists` with computed paths.
    case call(Operator, Arguments)

    /// The constant value, when this node is one.
    var literalValue: JSONValue? {
        if case .literal(let value) = self { return value }
        return nil
    }
}

/// The arguments of an operation.
enum Arguments: Sendable {
    /// One node per argument: the arguments were written as a JSON array, or as a single value that is not an
    /// operation (`{"cat": "ice"}` has the one argument `"ice"`).
    case list([Node])
    /// The arguments were written as one operation: its result is the argument list when it is an array, the
    /// only argument otherwise (`{"+": {"val": "numbers"}}` adds up the numbers).
    case computed(Node)
}
