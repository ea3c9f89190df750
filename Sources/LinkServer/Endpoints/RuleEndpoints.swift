import LinkCore

/// `POST /v1/rules/evaluate`: try a JSON Logic rule on data before putting it in a route (API.md §3).
enum RuleEndpoints {
    static var endpoints: [Endpoint] {
        [
            Endpoint("POST", "/v1/rules/evaluate", .read) { request, _ in
                let body = try JSONFields(request.jsonBody(), allowed: ["rule", "data"])
                guard let expression = body["rule"] else {
                    throw LinkError(.invalidRequest, "Field 'rule' is required", details: ["field": "rule"])
                }
                let rule = try RuleEndpoints.compile(expression)
                do {
                    return .now(.json(["result": try rule.evaluate(body["data"] ?? .null)]))
                } catch let error as RuleError {
                    throw LinkError(.ruleError, error.message, details: ["type": error.type])
                }
            }
        ]
    }

    /// The playground's rule. A shape its operator never accepts fails with 422 `rule_error` and the suites' type
    /// `"Invalid Arguments"`, as an evaluation does (API.md §3 lists it among a failing evaluation's types), though
    /// it is found before the data is read; an unknown operator stays 400 `invalid_rule` (§1). A route's rule with
    /// either is refused at registration, 400 `invalid_rule`: it would fail on every click.
    static func compile(_ expression: JSONValue) throws(LinkError) -> Rule {
        do {
            return try Rule(expression)
        } catch  where error.code == .invalidRule && error.details["type"] == "Invalid Arguments" {
            throw LinkError(.ruleError, error.message, details: error.details)
        }
    }
}
