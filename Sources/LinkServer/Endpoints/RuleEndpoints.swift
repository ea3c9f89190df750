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
                let rule = try Rule(expression)
                do {
                    return .now(.json(["result": try rule.evaluate(body["data"] ?? .null)]))
                } catch let error as RuleError {
                    throw LinkError(.ruleError, error.message, details: ["type": error.type])
                }
            }
        ]
    }
}
