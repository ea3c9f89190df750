import LinkCore

/// Helpers for the rule tests: rules and data written as JSON text.
enum RuleTestSupport {
    static func json(_ text: String) throws -> JSONValue {
        try JSONParser.parse(text)
    }

    /// Compiles `rule` and evaluates it over `data`.
    static func evaluate(_ rule: String, data: String = "null") throws -> JSONValue {
        try Rule(json(rule)).evaluate(json(data))
    }

    /// The compile error of `rule`, or nil when it compiles.
    static func compileError(_ rule: String) throws -> LinkError? {
        let expression = try json(rule)
        do {
            _ = try Rule(expression)
            return nil
        } catch {
            return error
        }
    }

    /// The evaluation error of `rule` over `data`, or nil when it evaluates.
    static func evaluationError(_ rule: String, data: String = "null") throws -> RuleError? {
        let compiled = try Rule(json(rule))
        let input = try json(data)
        do {
            _ = try compiled.evaluate(input)
            return nil
        } catch {
            return error
        }
    }
}
