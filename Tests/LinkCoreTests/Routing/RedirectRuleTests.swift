import LinkCore
import Testing

@Suite struct RedirectRuleTests {
    private func rule(_ text: String) throws -> RedirectRule {
        try RedirectRule(json: RoutingFixtures.json(text), field: "redirect[0]")
    }

    @Test func decodesALocationTarget() throws {
        let rule = try rule(#"{"when": {"!": {"var": "context.loggedIn"}}, "to": "/login?from={location}"}"#)
        #expect(rule.when?.expression == ["!": ["var": "context.loggedIn"]])
        guard case .redirect(.location(let template)) = rule.action else {
            Issue.record("expected a location target")
            return
        }
        #expect(template.description == "/login?from={location}")
    }

    @Test func decodesAnInterceptWithoutCondition() throws {
        let rule = try rule(#"{"action": "intercept"}"#)
        #expect(rule.when == nil)
        guard case .intercept = rule.action else {
            Issue.record("expected intercept")
            return
        }
    }

    @Test func decodesANameTarget() throws {
        let rule = try rule(
            #"{"to": {"name": "login", "params": {"id": "{id}"}, "query": {"from": "{location}", "n": 1}}}"#)
        guard case .redirect(.route(let name, let params, let query)) = rule.action else {
            Issue.record("expected a name target")
            return
        }
        #expect(name == "login")
        #expect(params.map(\.name) == ["id"])
        #expect(query.map(\.name) == ["from", "n"])
        #expect(query.map(\.value.description) == ["{location}", "1"])
    }

    @Test func equalityIsByTheRuleAsWritten() throws {
        #expect(try rule(#"{"to": "/a"}"#) == rule(#"{"to": "/a"}"#))
        #expect(try rule(#"{"to": "/a"}"#) != rule(#"{"to": "/b"}"#))
    }

    @Test(arguments: [
        (#"{"to": "/a", "action": "intercept"}"#, "redirect[0]"),
        (#"{"when": true}"#, "redirect[0]"),
        (#"{"action": "redirect"}"#, "redirect[0].action"),
        (#"{"to": "/a", "unless": true}"#, "redirect[0].unless"),
        (#"{"when": {"nope": [1]}, "to": "/a"}"#, "redirect[0].when"),
        (#"{"when": {"var": "a", "!": 1}, "to": "/a"}"#, "redirect[0].when"),
        (#"{"to": "/a/{id"}"#, "redirect[0].to"),
        (#"{"to": "/a/id}"}"#, "redirect[0].to"),
        (#"{"to": "/a/{}"}"#, "redirect[0].to"),
        (#"{"to": "/a/{a-b}"}"#, "redirect[0].to"),
        (#"{"to": 3}"#, "redirect[0].to"),
        (#"{"to": {"params": {}}}"#, "redirect[0].to.name"),
        (#"{"to": {"name": "x", "params": []}}"#, "redirect[0].to.params"),
        (#"{"to": {"name": "x", "params": {"a": [1]}}}"#, "redirect[0].to.params.a"),
        (#"{"to": {"name": "x", "extra": 1}}"#, "redirect[0].to.extra"),
        (#""/a""#, "redirect[0]"),
    ])
    func rejectsMalformedRules(text: String, field: String) throws {
        let json = try RoutingFixtures.json(text)
        let error = #expect(throws: LinkError.self) { try RedirectRule(json: json, field: "redirect[0]") }
        #expect(error?.code == .invalidRule)
        #expect(error?.details["field"] == .string(field), "\(String(describing: error))")
    }
}
