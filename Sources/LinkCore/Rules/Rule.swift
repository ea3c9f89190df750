/// A JSON Logic expression compiled once (at registration) into an evaluable tree.
///
/// ```swift
/// let rule = try Rule(["!": ["var": "context.loggedIn"]])
/// let show = try rule.evaluate(["context": ["loggedIn": false]]).isTruthy   // true
/// ```
///
/// The engine implements the JSON Logic operators of the community specification and passes every case of the
/// official conformance suites. Errors come in two stages:
/// - ``init(_:)`` rejects what is malformed whatever the data, as a ``LinkError`` with code `.invalidRule` whose
///   `details["type"]` is the JSON Logic error type the suites expect from evaluation: `"Unknown Operator"` (an
///   unknown operator, with `details["operator"]`, or an object with several keys) or `"Invalid Arguments"` (an
///   argument shape the operator never accepts, such as `{"and": true}`, `{"<": [1]}` or `{"map": 5}`, with
///   `details["operator"]`).
/// - ``evaluate(_:)`` throws a ``RuleError`` for failures that depend on the data.
///
/// A `Rule` is an immutable value: share it freely across tasks and evaluate it concurrently.
public struct Rule: Sendable, Hashable {
    /// The source expression.
    public let expression: JSONValue
    /// The compiled tree.
    let root: Node

    /// Compiles `expression`.
    ///
    /// Throws ``LinkError`` `.invalidRule` with details `["type": "Unknown Operator", "operator": name]` for an
    /// unknown operator, and with `["type": "Invalid Arguments", "operator": name]` (or another `type`) for any
    /// other malformation detectable before evaluation.
    public init(_ expression: JSONValue) throws(LinkError) {
        self.expression = expression
        self.root = try RuleCompiler.compile(expression)
    }

    /// Evaluates the rule over `data`.
    ///
    /// Throws ``RuleError`` when the rule fails on this data (`Invalid Arguments`, `NaN`, or a value raised by
    /// `throw`).
    public func evaluate(_ data: JSONValue) throws(RuleError) -> JSONValue {
        var evaluator = Evaluator(root: data)
        let result = try evaluator.evaluate(root)
        // Whoever asked writes the result out: that is work too, and a few nested `map`s over constant arrays
        // build, from shared pieces, a result of gigabytes.
        try evaluator.charge(Evaluator.coercionCost(result, limit: evaluator.budget))
        return result
    }

    /// Rules are equal when their source expressions are.
    public static func == (lhs: Rule, rhs: Rule) -> Bool {
        lhs.expression == rhs.expression
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(expression)
    }
}
