import LinkCore
import Testing

@Suite struct ResolverTests {
    static let routes = """
        [
          {"path": "/users/:id", "name": "user", "destination": {"screen": "UserProfile"}, "presentation": "push",
           "sameRoute": "update",
           "routes": [{"path": "posts/:postId", "name": "userPost", "destination": {"screen": "Post"}}]},
          {"path": "/users/me", "name": "me"},
          {"path": "/u/:id", "name": "legacyUser", "redirect": [{"to": "/users/{id}"}]},
          {"path": "/city/school/:school/class/:class", "name": "schoolClass"},
          {"path": "/files/*path", "name": "files"},
          {"path": "/Help", "name": "help", "caseInsensitive": true},
          {"path": "/", "name": "home"}
        ]
        """

    private func resolver(hosts: [String]? = nil) throws -> Resolver {
        try RoutingFixtures.resolver(Self.routes, hosts: hosts)
    }

    @Test func answersWithTheContractShape() throws {
        let resolution = try resolver().resolve(location: "/u/42", current: "/users/7")
        let expected = try RoutingFixtures.json(
            #"""
            {
              "location": "/users/42",
              "path": "/users/42",
              "route": {"name": "user", "pattern": "/users/:id"},
              "params": {"id": "42"},
              "query": {},
              "queryItems": [],
              "destination": {"screen": "UserProfile"},
              "presentation": "push",
              "matches": [{"pattern": "/users/:id", "name": "user", "location": "/users/42"}],
              "redirects": [{"from": "/u/42", "to": "/users/42", "route": "legacyUser", "rule": 0}],
              "sameRoute": "update"
            }
            """#)
        #expect(resolution.json() == expected)
        #expect(resolution.json().encodedString() == expected.encodedString())
    }

    /// A route's constant members (its name and pattern, destination, presentation, and its entry in `matches`) are
    /// rendered the first time it is part of an answer, as the leaf or in a chain, then copied: resolutions racing
    /// to be the first all write the full answer, and a parent first met in a chain answers as its own leaf.
    @Test func firstAnswersRacingAgree() async throws {
        let resolver = try RoutingFixtures.resolver(
            #"""
            [{"path": "/orgs/:org", "name": "org", "destination": {"tab": "org \"main\"\n"}, "routes": [
              {"path": "teams/:team", "name": "team", "presentation": "sheet"}]}]
            """#)
        let leaf = try RoutingFixtures.json(
            #"""
            {
              "location": "/orgs/a/teams/b", "path": "/orgs/a/teams/b",
              "route": {"name": "team", "pattern": "/orgs/:org/teams/:team"},
              "params": {"org": "a", "team": "b"}, "query": {}, "queryItems": [],
              "destination": null, "presentation": "sheet",
              "matches": [
                {"pattern": "/orgs/:org", "name": "org", "location": "/orgs/a"},
                {"pattern": "/orgs/:org/teams/:team", "name": "team", "location": "/orgs/a/teams/b"}
              ],
              "redirects": []
            }
            """#)
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 {
                group.addTask { try resolver.resolve(location: "/orgs/a/teams/b").json().encodedString() }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers == Array(repeating: leaf.encodedString(), count: 16))
        #expect(
            try resolver.resolve(location: "/orgs/z").json()
                == RoutingFixtures.json(
                    #"""
                    {
                      "location": "/orgs/z", "path": "/orgs/z", "route": {"name": "org", "pattern": "/orgs/:org"},
                      "params": {"org": "z"}, "query": {}, "queryItems": [],
                      "destination": {"tab": "org \"main\"\n"}, "presentation": null,
                      "matches": [{"pattern": "/orgs/:org", "name": "org", "location": "/orgs/z"}], "redirects": []
                    }
                    """#))
    }

    @Test func resolvesALocationWithQuery() throws {
        let resolution = try resolver().resolve(location: "/users/42/posts/7?tab=posts&x&tab=all")
        #expect(resolution.route.name == "userPost")
        #expect(resolution.location.description == "/users/42/posts/7?tab=posts&x&tab=all")
        #expect(resolution.params.dictionary == ["id": "42", "postId": "7"])
        let json = resolution.json()
        #expect(json["query"] == ["tab": "all", "x": ""])
        #expect(json["queryItems"] == [["tab", "posts"], ["x", ""], ["tab", "all"]])
        #expect(json["presentation"] == nil as JSONValue)
        #expect(json["sameRoute"] == nil)
        #expect(
            json["matches"] == [
                ["pattern": "/users/:id", "name": "user", "location": "/users/42"],
                ["pattern": "/users/:id/posts/:postId", "name": "userPost", "location": "/users/42/posts/7"],
            ])
        #expect(json["redirects"] == [])
    }

    static let locations: [(String, String, [String: String])] = [
        ("/users/me", "me", [:]),
        ("/users/42", "user", ["id": "42"]),
        ("/users/42/", "user", ["id": "42"]),
        ("//users//42", "user", ["id": "42"]),
        ("users/42", "user", ["id": "42"]),
        ("/users/a%2Fb", "user", ["id": "a/b"]),
        ("https://example.com/users/42#bio", "user", ["id": "42"]),
        ("myapp://users/42", "user", ["id": "42"]),
        ("myapp://users/me", "me", [:]),
        ("myapp:users/42/posts/1", "userPost", ["id": "42", "postId": "1"]),
        ("/city/school/清华大学/class/123", "schoolClass", ["school": "清华大学", "class": "123"]),
        (
            "/city/school/%E6%B8%85%E5%8D%8E%E5%A4%A7%E5%AD%A6/class/123", "schoolClass",
            ["school": "清华大学", "class": "123"]
        ),
        ("/files/a/b%20c/d", "files", ["path": "a/b c/d"]),
        ("/help", "help", [:]),
        ("/HELP/", "help", [:]),
        ("/", "home", [:]),
        ("", "home", [:]),
        ("?x=1", "home", [:]),
    ]

    @Test(arguments: locations)
    func resolvesLocations(text: String, name: String, params: [String: String]) throws {
        if text.isEmpty {
            #expect(throws: LinkError.self) { try resolver().resolve(location: text) }
            return
        }
        let resolution = try resolver().resolve(location: text)
        #expect(resolution.route.name == name)
        #expect(Dictionary(uniqueKeysWithValues: resolution.params.map { ($0.name, $0.value) }) == params)
    }

    @Test func reportsUnicodeLocationsEncoded() throws {
        let resolution = try resolver().resolve(location: "/city/school/清华大学/class/123")
        #expect(resolution.location.path == "/city/school/%E6%B8%85%E5%8D%8E%E5%A4%A7%E5%AD%A6/class/123")
        #expect(resolution.json()["params"] == ["school": "清华大学", "class": "123"])
    }

    @Test func staticBeatsParameterWhateverTheRegistrationOrder() throws {
        for order in [
            #"[{"path": "/a/:x", "name": "p"}, {"path": "/a/b", "name": "s"}]"#,
            #"[{"path": "/a/b", "name": "s"}, {"path": "/a/:x", "name": "p"}]"#,
        ] {
            let resolver = try RoutingFixtures.resolver(order)
            #expect(try resolver.resolve(location: "/a/b").route.name == "s")
            #expect(try resolver.resolve(location: "/a/c").route.name == "p")
        }
    }

    @Test func chainsFourDeep() throws {
        let resolver = try RoutingFixtures.resolver(
            #"""
            [{"path": "/orgs/:org", "name": "org", "routes": [
              {"path": "teams/:team", "name": "team", "routes": [
                {"path": "members/:member", "name": "member", "routes": [
                  {"path": "roles/:role", "name": "role", "destination": "deep"}]}]}]}]
            """#)
        let resolution = try resolver.resolve(location: "/orgs/acme/teams/core/members/ann/roles/admin?x=1")
        #expect(resolution.route.name == "role")
        #expect(resolution.params.dictionary == ["org": "acme", "team": "core", "member": "ann", "role": "admin"])
        #expect(resolution.matches.map(\.name) == ["org", "team", "member", "role"])
        #expect(
            resolution.matches.map(\.location) == [
                "/orgs/acme", "/orgs/acme/teams/core", "/orgs/acme/teams/core/members/ann",
                "/orgs/acme/teams/core/members/ann/roles/admin",
            ])
        #expect(resolution.route.destination == "deep")
        #expect(try resolver.resolve(location: "/orgs/acme/teams/core").matches.count == 2)
    }

    @Test func caseInsensitiveRoutesKeepParameterCase() throws {
        let resolver = try RoutingFixtures.resolver(#"[{"path": "/Users/:id", "name": "u", "caseInsensitive": true}]"#)
        let resolution = try resolver.resolve(location: "/uSeRs/AbC")
        #expect(resolution.params["id"] == "AbC")
        #expect(resolution.matches[0].location == "/uSeRs/AbC")
        let sensitive = try RoutingFixtures.resolver(#"[{"path": "/Users/:id"}]"#)
        #expect(throws: LinkError.self) { try sensitive.resolve(location: "/users/1") }
    }

    @Test func noMatchNamesTheLocation() throws {
        let error = #expect(throws: LinkError.self) { try resolver().resolve(location: "/users") }
        #expect(error?.code == .noMatch)
        #expect(error?.message == "No route matches /users")
        #expect(error?.details == ["location": "/users"])
    }

    @Test func invalidLocationsAreInvalidURL() throws {
        let error = #expect(throws: LinkError.self) { try resolver().resolve(location: "/users/%zz") }
        #expect(error?.code == .invalidURL)
    }

    @Test func hostsOutsideTheAllowListMatchNothing() throws {
        let resolver = try resolver(hosts: ["example.com"])
        #expect(try resolver.resolve(location: "https://EXAMPLE.com/users/42").route.name == "user")
        #expect(try resolver.resolve(location: "/users/42").route.name == "user")
        #expect(try resolver.resolve(location: "myapp://users/42").route.name == "user")
        let error = #expect(throws: LinkError.self) { try resolver.resolve(location: "https://evil.com/users/42") }
        #expect(error?.code == .noMatch)
        #expect(error?.details["host"] == "evil.com")
        #expect(error?.details["location"] == "/users/42")
    }

    @Test func sameRouteOnlyForTheSameLeafRoute() throws {
        let resolver = try resolver()
        #expect(try resolver.resolve(location: "/users/42", current: "/users/7").sameRoute == .update)
        #expect(try resolver.resolve(location: "/users/42", current: "myapp://users/42?x=1").sameRoute == .update)
        #expect(try resolver.resolve(location: "/users/42", current: "/users/7/posts/1").sameRoute == nil)
        #expect(try resolver.resolve(location: "/users/42/posts/2", current: "/users/7/posts/1").sameRoute == .new)
        #expect(try resolver.resolve(location: "/users/42", current: "/nowhere/at/all").sameRoute == nil)
        // `current` is resolved without redirects: /u/7 is the legacy route, not `user`.
        #expect(try resolver.resolve(location: "/users/42", current: "/u/7").sameRoute == nil)
        #expect(try resolver.resolve(location: "/users/42").json()["sameRoute"] == nil)
        let error = #expect(throws: LinkError.self) { try resolver.resolve(location: "/users/42", current: "/%") }
        #expect(error?.code == .invalidURL)
        #expect(error?.details["field"] == "current")
    }

    @Test func resolvesByName() throws {
        let resolver = try resolver()
        let resolution = try resolver.resolve(
            NamedLocation(name: "userPost", params: ["id": "a b", "postId": "1"], query: [QueryItem("q", "x&y")]))
        #expect(resolution.location.description == "/users/a%20b/posts/1?q=x%26y")
        #expect(resolution.params.dictionary == ["id": "a b", "postId": "1"])
        #expect(try resolver.resolve(NamedLocation(name: "legacyUser", params: ["id": "9"])).route.name == "user")
        #expect(try resolver.locate(NamedLocation(name: "legacyUser", params: ["id": "9"])).description == "/u/9")
        let unknown = #expect(throws: LinkError.self) { try resolver.resolve(NamedLocation(name: "nope")) }
        #expect(unknown?.code == .unknownName)
    }

    @Test func resolvesRequests() throws {
        let resolver = try resolver()
        let byURL = try ResolveRequest(json: ["url": "/users/1", "current": "/users/2"])
        #expect(try resolver.resolve(byURL).sameRoute == .update)
        let byName = try ResolveRequest(json: ["name": "user", "params": ["id": 5]])
        #expect(try resolver.resolve(byName).location.description == "/users/5")
    }
}
