import LinkCore
import Testing

@Suite struct ResolverRedirectTests {
    static let guarded = """
        [
          {"path": "/account", "name": "account",
           "redirect": [{"when": {"!": {"var": "context.loggedIn"}}, "to": "/login?from={location}"}],
           "routes": [
             {"path": "orders/:id", "name": "order",
              "redirect": [{"when": {"==": [{"var": "params.id"}, "0"]}, "action": "intercept"}]},
             {"path": "settings", "name": "settings"}
           ]},
          {"path": "/login", "name": "login"}
        ]
        """

    @Test func aGuardOnAParentCoversItsChildren() throws {
        let resolver = try RoutingFixtures.resolver(Self.guarded)
        let resolution = try resolver.resolve(location: "/account/orders/7?x=1")
        #expect(resolution.route.name == "login")
        #expect(resolution.location.description == "/login?from=/account/orders/7?x%3D1")
        #expect(resolution.location.query.map["from"] == "/account/orders/7?x=1")
        #expect(
            resolution.redirects == [
                .init(
                    from: "/account/orders/7?x=1", to: "/login?from=/account/orders/7?x%3D1", route: "account", rule: 0)
            ])
        #expect(try resolver.resolve(location: "/account/settings").route.name == "login")
        #expect(try resolver.resolve(location: "/account").route.name == "login")
    }

    /// `{location}` in a path keeps its `/` and `?` (API.md §3, as §7 spells out for a link's targets): a mount's
    /// prefix, a web URL around it, or the location alone (a no-op).
    @Test func theLocationInAPathKeepsItsSlashesAndQuery() throws {
        let resolver = try RoutingFixtures.resolver(
            """
            [
              {"path": "/app/*rest", "name": "app"},
              {"path": "/legacy/*rest", "name": "legacy", "redirect": [{"to": "/app{location}"}]},
              {"path": "/old/:id", "name": "old", "redirect": [{"to": "https://www.example.com{location}"}]},
              {"path": "/self/:id", "name": "self", "redirect": [{"to": "{location}"}]}
            ]
            """)
        let mounted = try resolver.resolve(location: "/legacy/42?tab=posts")
        #expect(mounted.route.name == "app")
        #expect(mounted.params["rest"] == "legacy/42")
        #expect(mounted.location.query.map["tab"] == "posts")
        #expect(mounted.redirects.map(\.to) == ["/app/legacy/42?tab=posts"])
        let web = try resolver.resolve(location: "/old/42?tab=posts")
        #expect(web.route.name == "old")
        #expect(web.redirects.isEmpty)
        let same = try resolver.resolve(location: "/self/42")
        #expect(same.route.name == "self")
        #expect(same.redirects.isEmpty)
    }

    @Test func contextCanLetAResolutionThrough() throws {
        let resolver = try RoutingFixtures.resolver(Self.guarded)
        let resolution = try resolver.resolve(location: "/account/orders/7", context: ["loggedIn": true])
        #expect(resolution.route.name == "order")
        #expect(resolution.redirects.isEmpty)
    }

    /// FJRouter's `canOpen`: which route matches, with no rule evaluated.
    @Test func matchOnlySkipsEveryRule() throws {
        let resolver = try RoutingFixtures.resolver(Self.guarded)
        let matched = try resolver.resolve(try Location("/account/orders/0"), evaluateRules: false)
        #expect(matched.route.name == "order")
        #expect(matched.redirects.isEmpty)
        #expect(matched.matches.map(\.name) == ["account", "order"])
        let request = try ResolveRequest(json: ["url": "/account/settings", "evaluate": false])
        #expect(try resolver.resolve(request).route.name == "settings")
        #expect { try resolver.resolve(try Location("/nowhere"), evaluateRules: false) } throws: {
            ($0 as? LinkError)?.code == .noMatch
        }
        #expect { try ResolveRequest(json: ["url": "/a", "evaluate": "no"]) } throws: {
            ($0 as? LinkError)?.code == .invalidRequest
        }
        #expect { try ResolveRequest(json: ["name": "login", "hashMode": true]) } throws: {
            ($0 as? LinkError)?.code == .invalidRequest
        }
        let hash = try ResolveRequest(json: ["url": "https://x.com/#/account/settings", "hashMode": true])
        #expect(try resolver.resolve(hash).route.name == "login")
    }

    @Test func interceptNamesTheRouteAndRule() throws {
        let resolver = try RoutingFixtures.resolver(Self.guarded)
        let error = #expect(throws: LinkError.self) {
            try resolver.resolve(location: "/account/orders/0?x=1", context: ["loggedIn": true])
        }
        #expect(error?.code == .intercepted)
        #expect(error?.details["route"] == "order")
        #expect(error?.details["rule"] == 0)
        #expect(error?.details["location"] == "/account/orders/0?x=1")
        #expect(error?.details["pattern"] == "/account/orders/:id")
    }

    @Test func theContractExampleGuards() throws {
        let resolver = try RoutingFixtures.resolver("[\(RoutingFixtures.apiExample), {\"path\": \"/login\"}]")
        #expect(try resolver.resolve(location: "/users/42").location.description == "/login?from=/users/42")
        #expect(try resolver.resolve(location: "/users/42", context: ["loggedIn": true]).route.name == "user")
        let error = #expect(throws: LinkError.self) {
            try resolver.resolve(location: "/users/0/posts/1", context: ["loggedIn": true])
        }
        #expect(error?.code == .intercepted)
        #expect(error?.details["route"] == "user")
        #expect(error?.details["rule"] == 1)
    }

    @Test func rulesSeeLocationPathParamsQueryContextAndRoute() throws {
        let resolver = try RoutingFixtures.resolver(
            #"""
            [{"path": "/p/:id", "name": "p", "routes": [{"path": "leaf", "name": "leaf"}], "redirect": [
              {"when": {"===": [{"var": "location"}, "/p/1/leaf?a=b"]}, "to": "/hit/location"},
              {"when": {"===": [{"var": "path"}, "/p/2/leaf"]}, "to": "/hit/path"},
              {"when": {"===": [{"var": "params.id"}, "3"]}, "to": "/hit/params"},
              {"when": {"===": [{"var": "query.q"}, "4"]}, "to": "/hit/query"},
              {"when": {"===": [{"var": "context.user.role"}, "admin"]}, "to": "/hit/context"},
              {"when": {"===": [{"var": "route"}, "p"]}, "to": "/hit/route"}
            ]},
             {"path": "/hit/:what", "name": "hit"}]
            """#)
        func hit(_ location: String, context: JSONValue = nil) throws -> String? {
            try resolver.resolve(location: location, context: context).params["what"]
        }
        #expect(try hit("/p/1/leaf?a=b") == "location")
        #expect(try hit("/p/2/leaf?a=b") == "path")
        #expect(try hit("/p/3/leaf") == "params")
        #expect(try hit("/p/9/leaf?q=4") == "query")
        #expect(try hit("/p/9/leaf", context: ["user": ["role": "admin"]]) == "context")
        #expect(try hit("/p/9") == "route")
        #expect(try resolver.resolve(location: "/p/9/leaf").route.name == "leaf")
    }

    @Test func rulesRunRootToLeafAndTheFirstTruthyDecides() throws {
        let resolver = try RoutingFixtures.resolver(
            #"""
            [{"path": "/a", "redirect": [{"when": {"var": "context.parent"}, "to": "/to/parent"}], "routes": [
               {"path": "b", "redirect": [
                 {"when": {"var": "context.first"}, "to": "/to/first"},
                 {"to": "/to/second"}]}]},
             {"path": "/to/:x"}]
            """#)
        func target(_ context: JSONValue) throws -> String? {
            try resolver.resolve(location: "/a/b", context: context).params["x"]
        }
        #expect(try target(["parent": true, "first": true]) == "parent")
        #expect(try target(["first": true]) == "first")
        #expect(try target(nil) == "second")
        let resolution = try resolver.resolve(location: "/a/b", context: ["first": true])
        #expect(resolution.redirects.map(\.rule) == [0])
        #expect(resolution.redirects.map(\.route) == [nil])
    }

    @Test func nameTargetsBuildTheirLocation() throws {
        let resolver = try RoutingFixtures.resolver(
            #"""
            [{"path": "/old/:id", "redirect": [
               {"to": {"name": "post", "params": {"id": "{id}", "postId": "latest"}, "query": {"from": "{location}", "n": 1}}}]},
             {"path": "/users/:id/posts/:postId", "name": "post"}]
            """#)
        let resolution = try resolver.resolve(location: "/old/a%2Fb?x=1")
        #expect(resolution.route.name == "post")
        #expect(resolution.params.dictionary == ["id": "a/b", "postId": "latest"])
        #expect(resolution.location.query.items == [QueryItem("from", "/old/a%2Fb?x=1"), QueryItem("n", "1")])
        #expect(resolution.location.description == "/users/a%2Fb/posts/latest?from=/old/a%252Fb?x%3D1&n=1")
    }

    @Test func theOldQueryDoesNotCarryOverButContextDoes() throws {
        let resolver = try RoutingFixtures.resolver(
            #"""
            [{"path": "/a", "redirect": [{"when": {"var": "context.go"}, "to": "/b"}]},
             {"path": "/b", "redirect": [{"when": {"var": "context.go"}, "to": "/c?fresh=1"}]},
             {"path": "/c", "name": "c"}]
            """#)
        let resolution = try resolver.resolve(location: "/a?old=1", context: ["go": true])
        #expect(resolution.route.name == "c")
        #expect(resolution.location.description == "/c?fresh=1")
        #expect(resolution.redirects.map(\.from) == ["/a?old=1", "/b"])
        #expect(resolution.redirects.map(\.to) == ["/b", "/c?fresh=1"])
    }

    @Test func aRedirectToTheCurrentLocationIsANoOp() throws {
        let resolver = try RoutingFixtures.resolver(
            #"""
            [{"path": "/a/:x", "redirect": [{"to": "/a/{x}"}, {"when": {"===": [{"var": "params.x"}, "go"]}, "to": "/b"}]},
             {"path": "/b", "name": "b"}]
            """#)
        let stay = try resolver.resolve(location: "/a/stay")
        #expect(stay.redirects.isEmpty)
        #expect(stay.location.path == "/a/stay")
        let go = try resolver.resolve(location: "//a/go/")
        #expect(go.route.name == "b")
        #expect(go.redirects == [.init(from: "/a/go", to: "/b", route: nil, rule: 1)])
    }

    /// `?x` and `?x=` are one location (API.md §2), though each is written back as it came: a redirect from one to
    /// the other is a no-op, and a chain that comes back to one through the other is a loop.
    @Test func anEmptyValueWrittenEitherWayIsTheSameLocation() throws {
        let resolver = try RoutingFixtures.resolver(
            #"""
            [{"path": "/a", "redirect": [{"to": "/a?x"}]},
             {"path": "/p", "redirect": [{"when": {"==": [{"var": "query.x"}, ""]}, "to": "/q?x="}]},
             {"path": "/q", "redirect": [{"to": "/p?x"}]}]
            """#)
        let stay = try resolver.resolve(location: "/a?x=", redirectLimit: 0)
        #expect(stay.redirects.isEmpty)
        #expect(stay.location.description == "/a?x=")
        #expect {
            try resolver.resolve(location: "/p?x=")
        } throws: { error in
            (error as? LinkError)?.code == .redirectLoop
                && (error as? LinkError)?.details["chain"] == ["/p?x=", "/q?x=", "/p?x"]
        }
    }

    @Test func catchAllsKeepTheirSlashesInPathTemplates() throws {
        let resolver = try RoutingFixtures.resolver(
            #"[{"path": "/old/*rest", "redirect": [{"to": "/new/{rest}"}]}, {"path": "/new/*rest", "name": "new"}]"#)
        let resolution = try resolver.resolve(location: "/old/a/b%20c/d%2Fe")
        #expect(resolution.route.name == "new")
        #expect(resolution.params["rest"] == "a/b c/d/e")
        #expect(resolution.location.segments == ["new", "a", "b c", "d", "e"])
    }

    private func steps(_ count: Int, limit: Int = 5) throws -> Resolver {
        var routes: [String] = []
        for index in 0..<count {
            routes.append(#"{"path": "/s\#(index)", "redirect": [{"to": "/s\#(index + 1)"}]}"#)
        }
        routes.append(#"{"path": "/s\#(count)", "name": "end"}"#)
        return try RoutingFixtures.resolver("[" + routes.joined(separator: ",") + "]", redirectLimit: limit)
    }

    @Test func exactlyTheLimitIsAllowed() throws {
        let resolution = try steps(5).resolve(location: "/s0")
        #expect(resolution.route.name == "end")
        #expect(resolution.redirects.count == 5)
        #expect(resolution.redirects.map(\.to) == ["/s1", "/s2", "/s3", "/s4", "/s5"])
    }

    @Test func onePastTheLimitIsRefusedWithTheChain() throws {
        let error = #expect(throws: LinkError.self) { try steps(6).resolve(location: "/s0") }
        #expect(error?.code == .redirectLimit)
        #expect(error?.details["limit"] == 5)
        #expect(error?.details["chain"] == ["/s0", "/s1", "/s2", "/s3", "/s4", "/s5", "/s6"])
    }

    @Test func aRequestMayLowerTheLimitButNotRaiseIt() throws {
        let resolver = try steps(3)
        #expect(try resolver.resolve(location: "/s0", redirectLimit: 3).redirects.count == 3)
        let lowered = #expect(throws: LinkError.self) { try resolver.resolve(location: "/s0", redirectLimit: 2) }
        #expect(lowered?.code == .redirectLimit)
        #expect(lowered?.details["limit"] == 2)
        #expect(lowered?.details["chain"] == ["/s0", "/s1", "/s2", "/s3"])
        let none = #expect(throws: LinkError.self) { try resolver.resolve(location: "/s0", redirectLimit: 0) }
        #expect(none?.details["chain"] == ["/s0", "/s1"])
        #expect(try resolver.resolve(location: "/s3", redirectLimit: 0).route.name == "end")
        let raised = #expect(throws: LinkError.self) { try steps(6).resolve(location: "/s0", redirectLimit: 100) }
        #expect(raised?.details["limit"] == 5)
        let configured = try steps(6, limit: 6)
        #expect(try configured.resolve(location: "/s0").redirects.count == 6)
        let negative = #expect(throws: LinkError.self) { try resolver.resolve(location: "/s0", redirectLimit: -1) }
        #expect(negative?.code == .invalidRequest)
    }

    @Test func aLoopBackToTheOriginIsReported() throws {
        let resolver = try RoutingFixtures.resolver(
            #"[{"path": "/a", "redirect": [{"to": "/b"}]}, {"path": "/b", "redirect": [{"to": "/a"}]}]"#)
        let error = #expect(throws: LinkError.self) { try resolver.resolve(location: "/a") }
        #expect(error?.code == .redirectLoop)
        #expect(error?.details["chain"] == ["/a", "/b", "/a"])
    }

    @Test func aLoopOfOneLocationThroughItsQuery() throws {
        // `/a` and `/a?n=1` are different locations: `/a` → `/a?n=1` → `/a` loops with one hop in between.
        let resolver = try RoutingFixtures.resolver(
            #"[{"path": "/a", "redirect": [{"when": {"var": "query.n"}, "to": "/a"}, {"to": "/a?n=1"}]}]"#)
        let error = #expect(throws: LinkError.self) { try resolver.resolve(location: "/a") }
        #expect(error?.code == .redirectLoop)
        #expect(error?.details["chain"] == ["/a", "/a?n=1", "/a"])
    }

    @Test func aLoopOfThreeIsReported() throws {
        let resolver = try RoutingFixtures.resolver(
            #"""
            [{"path": "/start", "redirect": [{"to": "/a"}]},
             {"path": "/a", "redirect": [{"to": "/b"}]}, {"path": "/b", "redirect": [{"to": "/c"}]},
             {"path": "/c", "redirect": [{"to": "/a"}]}]
            """#)
        let error = #expect(throws: LinkError.self) { try resolver.resolve(location: "/start") }
        #expect(error?.code == .redirectLoop)
        #expect(error?.details["chain"] == ["/start", "/a", "/b", "/c", "/a"])
        let fromInside = #expect(throws: LinkError.self) { try resolver.resolve(location: "/b") }
        #expect(fromInside?.details["chain"] == ["/b", "/c", "/a", "/b"])
    }

    @Test func aRedirectToNowhereIsNoMatchOrUnknownNameWithTheChain() throws {
        let resolver = try RoutingFixtures.resolver(
            #"""
            [{"path": "/old", "redirect": [{"to": "/nowhere?x=1"}]},
             {"path": "/gone", "redirect": [{"to": {"name": "missing"}}]},
             {"path": "/away", "redirect": [{"to": "https://evil.com/old"}]}]
            """#)
        let error = #expect(throws: LinkError.self) { try resolver.resolve(location: "/old") }
        #expect(error?.code == .noMatch)
        #expect(error?.details["location"] == "/nowhere?x=1")
        #expect(error?.details["chain"] == ["/old", "/nowhere?x=1"])
        let unknownName = #expect(throws: LinkError.self) { try resolver.resolve(location: "/gone") }
        #expect(unknownName?.code == .unknownName)
        #expect(unknownName?.details["name"] == "missing")
        #expect(unknownName?.details["chain"] == ["/gone"])
        let restricted = Resolver(table: resolver.table, hosts: HostAllowList(["example.com"]))
        let host = #expect(throws: LinkError.self) { try restricted.resolve(location: "/away") }
        #expect(host?.code == .noMatch)
        #expect(host?.details["host"] == "evil.com")
        #expect(host?.details["chain"] == ["/away", "/old"])
        // Without an allow-list the host is ignored: the chain goes on through /old.
        let open = #expect(throws: LinkError.self) { try resolver.resolve(location: "/away") }
        #expect(open?.details["chain"] == ["/away", "/old", "/nowhere?x=1"])
    }

    @Test func nameTargetsMissingParametersCarryTheChain() throws {
        let resolver = try RoutingFixtures.resolver(
            #"[{"path": "/x", "redirect": [{"to": {"name": "user"}}]}, {"path": "/users/:id", "name": "user"}]"#)
        let error = #expect(throws: LinkError.self) { try resolver.resolve(location: "/x") }
        #expect(error?.code == .missingParams)
        #expect(error?.details["missing"] == ["id"])
        #expect(error?.details["chain"] == ["/x"])
    }
}
