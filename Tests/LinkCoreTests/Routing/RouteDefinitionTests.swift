import LinkCore
import Testing

@Suite struct RouteDefinitionTests {
    @Test func decodesTheContractExample() throws {
        let definition = try RouteDefinition(json: RoutingFixtures.json(RoutingFixtures.apiExample))
        #expect(definition.path == "/users/:id")
        #expect(definition.name == "user")
        #expect(definition.destination == ["screen": "UserProfile"])
        #expect(definition.presentation == "push")
        #expect(definition.sameRoute == .update)
        #expect(definition.caseInsensitive == false)
        #expect(definition.redirect.count == 2)
        #expect(definition.routes.map(\.name) == ["userPost"])
        #expect(definition.routes[0].sameRoute == .new)
        #expect(definition.routes[0].caseInsensitive == nil)
    }

    @Test func roundTripsThroughJSON() throws {
        let definition = try RouteDefinition(json: RoutingFixtures.json(RoutingFixtures.apiExample))
        #expect(try RouteDefinition(json: definition.json()) == definition)
        let minimal = try RouteDefinition(json: ["path": "/a"])
        #expect(minimal.json() == ["path": "/a", "sameRoute": "new"])
    }

    @Test(arguments: [
        (#"{"name": "x"}"#, "path", "is required"),
        (#"{"path": 1}"#, "path", "must be a string"),
        (#"{"path": "/a", "extra": 1}"#, "extra", "Unknown field"),
        (#"{"path": "/a", "name": "a b"}"#, "name", "Invalid route name"),
        (#"{"path": "/a", "name": ""}"#, "name", "Invalid route name"),
        (#"{"path": "/a", "name": 3}"#, "name", "must be a string"),
        (#"{"path": "/a", "sameRoute": "replace"}"#, "sameRoute", "\"none\", \"update\" or \"new\""),
        (#"{"path": "/a", "caseInsensitive": "yes"}"#, "caseInsensitive", "must be a boolean"),
        (#"{"path": "/a", "presentation": {}}"#, "presentation", "must be a string"),
        (#"{"path": "/a", "routes": {}}"#, "routes", "must be an array"),
        (#"{"path": "/a", "routes": [{"path": "b", "routes": [{"nope": 1}]}]}"#, "routes[0].routes[0].nope", "Unknown"),
        (#"{"path": "/a", "routes": [3]}"#, "routes[0]", "must be an object"),
        (#"[]"#, "body", "must be an object"),
    ])
    func rejectsMalformedDefinitions(text: String, field: String, message: String) throws {
        let json = try RoutingFixtures.json(text)
        let error = #expect(throws: LinkError.self) { try RouteDefinition(json: json) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.details["field"] == .string(field))
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test func ruleErrorsAreInvalidRule() throws {
        let json = try RoutingFixtures.json(#"{"path": "/a", "routes": [{"path": "b", "redirect": [{"to": 1}]}]}"#)
        let error = #expect(throws: LinkError.self) { try RouteDefinition(json: json) }
        #expect(error?.code == .invalidRule)
        #expect(error?.details["field"] == "routes[0].redirect[0].to")
    }

    @Test(arguments: ["a", "A-Z_0.9", "user.profile-v2", "_"])
    func acceptsValidNames(name: String) {
        #expect(RouteDefinition.isValidName(name))
    }

    @Test(arguments: ["", "a b", "a/b", "é", "a:b"])
    func rejectsInvalidNames(name: String) {
        #expect(!RouteDefinition.isValidName(name))
    }
}
