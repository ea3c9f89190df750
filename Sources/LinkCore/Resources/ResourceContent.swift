/// What a resource holds: a stored JSON value (`null` included) or a JSON Logic rule computed at read time.
public enum ResourceContent: Sendable, Hashable {
    /// Returned as is.
    case value(JSONValue)
    /// Evaluated at every read over `{"params", "query", "location"}`; compiled once, when written.
    case compute(Rule)

    /// Compiles `expression` into a `compute` content.
    ///
    /// - Throws: `invalid_rule` for a malformed expression or an unknown operator.
    public static func compute(expression: JSONValue) throws(LinkError) -> ResourceContent {
        .compute(try Rule(expression))
    }

    /// The value for one read: the stored value, or the rule's result over `data`.
    ///
    /// - Throws: `rule_error` (details `type`: the JSON Logic error type or the thrown value) when the rule fails.
    public func value(for data: @autoclosure () -> JSONValue) throws(LinkError) -> JSONValue {
        switch self {
        case .value(let value):
            return value
        case .compute(let rule):
            do throws(RuleError) {
                return try rule.evaluate(data())
            } catch {
                throw LinkError(.ruleError, error.message, details: ["type": error.type])
            }
        }
    }
}
