import LinkCore

/// JSON Logic evaluation over the data a redirect rule sees (`{location, path, params, query, context, route}`).
enum RuleBenchmark {
    /// The typical guard of API.md §3.
    static let guardRule = #"{"!": {"var": "context.loggedIn"}}"#
    /// Ten operators: and, ==, var, in, var, <, +, var, !, var.
    static let tenOperatorRule = """
        {"and": [
          {"==": [{"var": "params.id"}, "42"]},
          {"in": [{"var": "query.tab"}, ["posts", "likes"]]},
          {"<": [{"+": [{"var": "context.age"}, 1]}, 100]},
          {"!": {"var": "context.banned"}}
        ]}
        """
    static let data = """
        {"location": "/users/42?tab=posts", "path": "/users/42", "params": {"id": "42"},
         "query": {"tab": "posts"}, "context": {"loggedIn": true, "age": 30, "banned": false}, "route": "user"}
        """

    static func run() {
        let data = try! JSONParser.parse(data)
        for (name, text) in [("guard !context.loggedIn", guardRule), ("10-operator rule", tenOperatorRule)] {
            let rule = try! Rule(JSONParser.parse(text))
            let ns = Measure.nanosecondsPerOperation(operations: 1) {
                (try? rule.evaluate(data))?.isTruthy == true ? 1 : 0
            }
            Row(group: "rules", name: name, value: ns).print()
        }
    }
}
