import LinkCore
import Testing

@Suite struct RouteTableTests {
    private func definition(_ text: String) throws -> RouteDefinition {
        try RouteDefinition(json: RoutingFixtures.json(text))
    }

    @Test func registersATreeRootFirst() throws {
        var table = RouteTable()
        let registered: [RegisteredRoute]
        (table, registered) = try table.registering(
            definition(
                #"{"path": "/users/:id", "name": "user", "routes": [{"path": "posts/:postId", "name": "userPost", "routes": [{"path": "comments"}]}, {"path": "settings", "name": "settings"}]}"#
            ), source: .api)
        #expect(registered.map(\.name) == ["user", "userPost", nil, "settings"])
        #expect(
            registered.map(\.pattern.description) == [
                "/users/:id", "/users/:id/posts/:postId", "/users/:id/posts/:postId/comments", "/users/:id/settings",
            ])
        #expect(registered[0].json() == ["name": "user", "pattern": "/users/:id"])
        #expect(registered[2].json() == ["name": nil, "pattern": "/users/:id/posts/:postId/comments"])
        #expect(table.count == 4)
        #expect(table.route(named: "userPost")?.chain == [0, 1])
        #expect(table.routes[2].chain == [0, 1, 2])
        #expect(table.routes[3].parentIndex == 0)
    }

    @Test func refusesTheSamePatternWithOtherParameterNames() throws {
        var table = try RoutingFixtures.table(#"[{"path": "/users/:id", "name": "user"}]"#)
        let error = #expect(throws: LinkError.self) {
            table = try table.registering(definition(#"{"path": "/users/:userId", "name": "other"}"#), source: .api)
                .table
        }
        #expect(error?.code == .routeConflict)
        #expect(error?.details["pattern"] == "/users/:userId")
        #expect(error?.details["name"] == "user")
        #expect(error?.details["existingPattern"] == "/users/:id")
        #expect(error?.details["existingSource"] == "api")
    }

    @Test func refusesANameBoundToAnotherPattern() throws {
        var table = try RoutingFixtures.table(#"[{"path": "/users/:id", "name": "user"}]"#)
        let error = #expect(throws: LinkError.self) {
            table = try table.registering(definition(#"{"path": "/people/:id", "name": "user"}"#), source: .api).table
        }
        #expect(error?.code == .nameConflict)
        #expect(error?.details["name"] == "user")
        #expect(error?.details["pattern"] == "/users/:id")
    }

    @Test func conflictsInsideOneTreeAreRefusedToo() throws {
        var table = RouteTable()
        let error = #expect(throws: LinkError.self) {
            table = try table.registering(
                definition(
                    #"{"path": "/a", "routes": [{"path": ":x", "name": "one"}, {"path": ":y", "name": "two"}]}"#),
                source: .api
            ).table
        }
        #expect(error?.code == .routeConflict)
        #expect(error?.details["name"] == "one")
        let empty = #expect(throws: LinkError.self) {
            table = try table.registering(definition(#"{"path": "/a", "routes": [{"path": ""}]}"#), source: .api).table
        }
        #expect(empty?.code == .routeConflict)
    }

    @Test func registrationIsAllOrNothing() throws {
        let table = try RoutingFixtures.table(#"[{"path": "/taken", "name": "taken"}]"#)
        let tree = try definition(
            #"{"path": "/new", "name": "new", "routes": [{"path": "ok", "name": "ok"}, {"path": "bad", "name": "taken"}]}"#
        )
        #expect(throws: LinkError.self) { _ = try table.registering(tree, source: .api) }
        #expect(table.count == 1)
        #expect(table.route(named: "new") == nil)
        #expect(table.index(of: try Pattern("/new")) == nil)
        #expect(table.match(try Location("/new/ok")) == nil)
    }

    @Test(arguments: [
        (#"{"path": "users/:id"}"#, LinkError.Code.invalidPattern, "path"),
        (#"{"path": "/users/:id", "routes": [{"path": "x/:id"}]}"#, .invalidPattern, "routes[0].path"),
        (#"{"path": "/u/:id", "redirect": [{"to": "/users/{uid}"}]}"#, .invalidRule, "redirect[0].to"),
        (#"{"path": "/u/:id", "redirect": [{"to": ""}]}"#, .invalidRule, "redirect[0].to"),
        (
            #"{"path": "/u/:id", "redirect": [{"to": {"name": "x", "params": {"a": "{b}"}}}]}"#, .invalidRule,
            "redirect[0].to.params.a"
        ),
        (
            #"{"path": "/u/:id", "routes": [{"path": "p/:pid", "redirect": [{"to": "/x/{pid}"}]}], "redirect": [{"to": "/y/{pid}"}]}"#,
            .invalidRule, "redirect[0].to"
        ),
        (#"{"path": "/u/:id", "redirect": [{"to": {"name": "bad name"}}]}"#, .invalidRule, "redirect[0].to.name"),
        (#"{"path": "/u/:id", "redirect": [{"to": {"name": ""}}]}"#, .invalidRule, "redirect[0].to.name"),
        (#"{"path": "/u/:id", "redirect": [{"to": "/v2{location}?src=legacy"}]}"#, .invalidRule, "redirect[0].to"),
        (#"{"path": "/u/:id", "redirect": [{"to": "/app{location}/{id}"}]}"#, .invalidRule, "redirect[0].to"),
    ])
    func validatesPatternsAndTemplatesAtRegistration(text: String, code: LinkError.Code, field: String) throws {
        let table = RouteTable()
        let tree = try definition(text)
        let error = #expect(throws: LinkError.self) { _ = try table.registering(tree, source: .api) }
        #expect(error?.code == code)
        if code == .invalidRule { #expect(error?.details["field"] == .string(field), "\(String(describing: error))") }
        #expect(table.count == 0)
    }

    /// A redirect to a name no route can have was stored by an earlier version: it loads (the service starts) and a
    /// resolution that reaches it answers `unknown_name`, as for any name not registered.
    @Test func aStoredTargetNamedOutsideTheNameRulesStillLoads() throws {
        let stored = try definition(#"{"path": "/u/:id", "redirect": [{"to": {"name": "bad name"}}]}"#)
        let table = try RouteTable().replacingRoutes(from: .api, with: [stored], stored: true).table
        #expect(table.count == 1)
        #expect { try Resolver(table: table).resolve(location: "/u/1") } throws: {
            ($0 as? LinkError)?.code == .unknownName
        }
    }

    @Test func caseInsensitivityIsInheritedAndPartOfConflicts() throws {
        var table = try RoutingFixtures.table(
            #"[{"path": "/Users/:id", "caseInsensitive": true, "routes": [{"path": "Posts"}, {"path": "Files", "caseInsensitive": false}]}]"#
        )
        #expect(table.routes.map(\.caseInsensitive) == [true, true, false])
        // Two case-insensitive routes equal but for case are the same pattern.
        let folded = #expect(throws: LinkError.self) {
            table = try table.registering(definition(#"{"path": "/USERS/:x", "caseInsensitive": true}"#), source: .api)
                .table
        }
        #expect(folded?.code == .routeConflict)
        // The same text is the same pattern whatever the flag.
        let same = #expect(throws: LinkError.self) {
            table = try table.registering(definition(#"{"path": "/Users/:x"}"#), source: .api).table
        }
        #expect(same?.code == .routeConflict)
        // A case-sensitive route with other letters is a more specific route, not a conflict.
        table = try table.registering(definition(#"{"path": "/users/me", "name": "me"}"#), source: .api).table
        #expect(table.match(try Location("/users/me"))?.index == table.index(named: "me"))
        #expect(table.match(try Location("/USERS/me"))?.index == 0)
    }

    @Test func findsRoutesByPatternIgnoringParameterNames() throws {
        let table = try RoutingFixtures.table(
            #"[{"path": "/u/:id", "name": "u"}, {"path": "/Ci", "caseInsensitive": true, "name": "ci"}]"#)
        #expect(table.index(of: try Pattern("/u/:x")) == 0)
        #expect(table.index(of: try Pattern("/CI")) == 1)
        #expect(table.index(of: try Pattern("/u")) == nil)
    }

    @Test func removesByNameWithChildren() throws {
        var table = try RoutingFixtures.table(
            #"[{"path": "/a", "name": "a", "routes": [{"path": "b", "name": "b", "routes": [{"path": "c", "name": "c"}]}, {"path": "d", "name": "d"}]}, {"path": "/e", "name": "e"}]"#
        )
        let removed: [Route]
        (table, removed) = try table.removing(named: "b")
        #expect(removed.compactMap(\.name) == ["b", "c"])
        #expect(table.routes.compactMap(\.name) == ["a", "d", "e"])
        #expect(table.route(named: "d")?.chain == [0, 1])
        #expect(table.route(named: "e")?.chain == [2])
        #expect(table.match(try Location("/a/b/c")) == nil)
        #expect(table.match(try Location("/a/d"))?.index == 1)
    }

    @Test func removesByPatternWithChildren() throws {
        var table = try RoutingFixtures.table(
            #"[{"path": "/users/:id", "name": "user", "routes": [{"path": "posts/:postId", "name": "userPost"}]}]"#)
        let removed: [Route]
        (table, removed) = try table.removing(pattern: "/users/:x")
        #expect(removed.compactMap(\.name) == ["user", "userPost"])
        #expect(table.count == 0)
        #expect(table.route(named: "user") == nil)
    }

    @Test func removalErrors() throws {
        var table = try RoutingFixtures.table(#"[{"path": "/config", "name": "config"}]"#, source: .config)
        table = try table.registering(definition(#"{"path": "/api", "name": "api"}"#), source: .api).table
        #expect(throws: LinkError.self) { _ = try table.removing(named: "nope") }
        let unknown = #expect(throws: LinkError.self) { _ = try table.removing(named: "nope") }
        #expect(unknown?.code == .unknownName)
        let noMatch = #expect(throws: LinkError.self) { _ = try table.removing(pattern: "/nope/:x") }
        #expect(noMatch?.code == .noMatch)
        #expect(noMatch?.details["pattern"] == "/nope/:x")
        let invalid = #expect(throws: LinkError.self) { _ = try table.removing(pattern: "nope") }
        #expect(invalid?.code == .invalidPattern)
        let readOnly = #expect(throws: LinkError.self) { _ = try table.removing(named: "config") }
        #expect(readOnly?.code == .readOnly)
        let readOnlyPattern = #expect(throws: LinkError.self) { _ = try table.removing(pattern: "/config") }
        #expect(readOnlyPattern?.code == .readOnly)
        #expect(table.count == 2)
        // The config itself may change its own routes.
        table = try table.removing(named: "config", by: .config).table
        #expect(table.count == 1)
    }

    @Test func replacesOneSourceAtomically() throws {
        var table = try RoutingFixtures.table(#"[{"path": "/c", "name": "c"}]"#, source: .config)
        table = try table.registering(definition(#"{"path": "/old", "name": "old"}"#), source: .api).table
        let registered: [RegisteredRoute]
        (table, registered) = try table.replacingRoutes(
            from: .api,
            with: [definition(#"{"path": "/n1", "name": "n1"}"#), definition(#"{"path": "/old", "name": "n2"}"#)])
        #expect(registered.compactMap(\.name) == ["n1", "n2"])
        #expect(table.routes.compactMap(\.name) == ["c", "n1", "n2"])
        #expect(table.routes.map(\.source) == [.config, .api, .api])
        let before = table.routes.compactMap(\.name)
        let error = #expect(throws: LinkError.self) {
            table = try table.replacingRoutes(
                from: .api, with: [definition(#"{"path": "/x"}"#), definition(#"{"path": "/c"}"#)]
            ).table
        }
        #expect(error?.code == .routeConflict)
        #expect(error?.details["existingSource"] == "config")
        #expect(table.routes.compactMap(\.name) == before)
    }

    @Test func exportsTheTreesOfASource() throws {
        let text = #"[{"path": "/a", "name": "a", "routes": [{"path": "b", "name": "b"}, {"path": "c", "name": "c"}]}]"#
        var table = try RoutingFixtures.table(text)
        table = try table.registering(definition(#"{"path": "/cfg"}"#), source: .config).table
        table = try table.removing(named: "b").table
        let exported = table.definitions(from: .api)
        #expect(exported.count == 1)
        #expect(exported[0].routes.map(\.name) == ["c"])
        var rebuilt = RouteTable()
        rebuilt = try rebuilt.replacingRoutes(from: .api, with: exported).table
        #expect(rebuilt.routes.map(\.pattern) == table.routes.filter { $0.source == .api }.map(\.pattern))
        #expect(table.definitions(from: .config).map(\.path) == ["/cfg"])
    }

    @Test func listsRoutesWithTheirDefinitionFields() throws {
        let table = try RoutingFixtures.table("[\(RoutingFixtures.apiExample)]")
        let expected = try RoutingFixtures.json(
            #"""
            {"routes": [
              {"name": "user", "pattern": "/users/:id", "source": "api", "parent": null, "path": "/users/:id",
               "destination": {"screen": "UserProfile"}, "presentation": "push", "sameRoute": "update",
               "caseInsensitive": false,
               "redirect": [
                 {"when": {"!": {"var": "context.loggedIn"}}, "to": "/login?from={location}"},
                 {"when": {"==": [{"var": "params.id"}, "0"]}, "action": "intercept"}], "link": null},
              {"name": "userPost", "pattern": "/users/:id/posts/:postId", "source": "api", "parent": "/users/:id",
               "path": "posts/:postId", "destination": null, "presentation": null, "sameRoute": "new",
               "caseInsensitive": false, "redirect": [], "link": null}
            ]}
            """#)
        #expect(table.json() == expected)
        #expect(table.json(ofRouteAt: 1) == expected["routes"]?.arrayValue?[1])
    }

    @Test func locatesByName() throws {
        let table = try RoutingFixtures.table("[\(RoutingFixtures.apiExample)]")
        let location = try table.location(
            named: "userPost", params: ["id": "42", "postId": "a/b"], query: [QueryItem("tab", "posts")])
        #expect(location.description == "/users/42/posts/a%2Fb?tab=posts")
        let unknown = #expect(throws: LinkError.self) { try table.location(named: "nope", params: [:]) }
        #expect(unknown?.code == .unknownName)
        #expect(unknown?.details["name"] == "nope")
        let missing = #expect(throws: LinkError.self) { try table.location(named: "userPost", params: [:]) }
        #expect(missing?.details["missing"] == ["id", "postId"])
    }
}
