import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// `/v1/routes`, `/v1/resolve`, `/v1/locate` over HTTP against the real daemon.
@Suite struct RouteEndpointTests {
    static let user: JSONValue = [
        "path": "/users/:id", "name": "user", "destination": ["screen": "UserProfile"], "presentation": "push",
        "sameRoute": "update",
        "redirect": [
            ["when": ["!": ["var": "context.loggedIn"]], "to": "/login?from={location}"],
            ["when": ["==": [["var": "params.id"], "0"]], "action": "intercept"],
        ],
        "routes": [["path": "posts/:postId", "name": "userPost"]],
    ]

    static let login: JSONValue = ["path": "/login", "name": "login"]

    @Test func registerListGetAndDelete() throws {
        try withServer { (server) throws in
            let client = server.client()
            let created = try client.post("/v1/routes", Self.user)
            #expect(created.status == 201)
            #expect(
                created.json
                    == [
                        "registered": [
                            ["name": "user", "pattern": "/users/:id"],
                            ["name": "userPost", "pattern": "/users/:id/posts/:postId"],
                        ]
                    ])
            let list = try client.get("/v1/routes")
            #expect(list.status == 200)
            let routes = try #require(list.json?["routes"]?.arrayValue)
            #expect(routes.map { $0["pattern"] } == ["/users/:id", "/users/:id/posts/:postId"])
            #expect(routes.allSatisfy { $0["source"] == "api" })
            #expect(routes.first?["destination"] == ["screen": "UserProfile"])
            #expect(routes.first?["presentation"] == "push")
            let one = try client.get("/v1/routes/userPost")
            #expect(one.status == 200)
            #expect(one.json?["pattern"] == "/users/:id/posts/:postId")
            #expect(try client.request("DELETE", "/v1/routes/user").status == 204)
            // The children went with it.
            #expect(try client.get("/v1/routes/userPost").errorCode == "unknown_name")
            #expect(try client.get("/v1/routes").json == ["routes": []])
        }
    }

    /// The list of a large table is kept per table and lent to libmicrohttpd: the same bytes to every client, and a
    /// write is seen at once (the table's next snapshot).
    @Test func aLargeRouteListFollowsWrites() throws {
        try withServer { (server) throws in
            let client = server.client()
            let routes: [JSONValue] = (0..<400).map {
                ["path": .string("/items/\($0)/:id"), "name": .string("item\($0)")]
            }
            #expect(try client.request("PUT", "/v1/routes", json: ["routes": .array(routes)]).status == 200)
            let lists = try (0..<3).map { _ in try server.client().get("/v1/routes") }
            #expect(lists.allSatisfy { $0.status == 200 && $0.body.count > Daemon.lentBodySize })
            #expect(Set(lists.map(\.body)).count == 1)
            #expect(lists[0].json?["routes"]?.arrayValue?.count == 400)
            #expect(try client.request("DELETE", "/v1/routes/item7").status == 204)
            let after = try client.get("/v1/routes").json?["routes"]?.arrayValue
            #expect(after?.count == 399)
            #expect(after?.contains { $0["name"] == "item7" } == false)
            #expect(try client.post("/v1/routes", Self.login).status == 201)
            #expect(try client.get("/v1/routes").json?["routes"]?.arrayValue?.count == 400)
        }
    }

    @Test func deleteByPatternIgnoresParameterNames() throws {
        try withServer { (server) throws in
            let client = server.client()
            _ = try client.post("/v1/routes", ["path": "/a/:x"])
            #expect(try client.request("DELETE", "/v1/routes?pattern=/a/:other").status == 204)
            let missing = try client.request("DELETE", "/v1/routes?pattern=/a/:x")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "no_match")
            let noPattern = try client.request("DELETE", "/v1/routes")
            #expect(noPattern.status == 400)
            #expect(noPattern.errorCode == "invalid_request")
            #expect(try client.request("DELETE", "/v1/routes/nobody").errorCode == "unknown_name")
        }
    }

    @Test func conflictsAndInvalidDefinitions() throws {
        try withServer { (server) throws in
            let client = server.client()
            _ = try client.post("/v1/routes", Self.user)
            let samePattern = try client.post("/v1/routes", ["path": "/users/:uid", "name": "other"])
            #expect(samePattern.status == 409)
            #expect(samePattern.errorCode == "route_conflict")
            #expect(samePattern.errorDetails?["pattern"] == "/users/:uid")
            #expect(samePattern.errorDetails?["name"] == "user")
            let sameName = try client.post("/v1/routes", ["path": "/people/:id", "name": "user"])
            #expect(sameName.status == 409)
            #expect(sameName.errorCode == "name_conflict")
            let badPattern = try client.post("/v1/routes", ["path": "/a/:id/b/:id"])
            #expect(badPattern.status == 400)
            #expect(badPattern.errorCode == "invalid_pattern")
            #expect(badPattern.errorDetails?["pattern"] != nil)
            #expect(badPattern.errorDetails?["position"] != nil)
            #expect(badPattern.errorDetails?["reason"] != nil)
            let badRule = try client.post(
                "/v1/routes", ["path": "/r", "redirect": [["when": ["bogus": []], "to": "/"]]])
            #expect(badRule.status == 400)
            #expect(badRule.errorCode == "invalid_rule")
            let badTemplate = try client.post("/v1/routes", ["path": "/t/:id", "redirect": [["to": "/x/{nope}"]]])
            #expect(badTemplate.errorCode == "invalid_rule")
            let unknownField = try client.post("/v1/routes", ["path": "/f", "presentaton": "push"])
            #expect(unknownField.errorCode == "invalid_request")
            // All or nothing: a tree with one bad child registers nothing.
            let partial = try client.post(
                "/v1/routes", ["path": "/p", "name": "p", "routes": [["path": "ok"], ["path": "bad/*x/y"]]])
            #expect(partial.errorCode == "invalid_pattern")
            #expect(try client.get("/v1/routes/p").errorCode == "unknown_name")
        }
    }

    @Test func putReplacesEveryAPIRoute() throws {
        try withServer { (server) throws in
            let client = server.client()
            _ = try client.post("/v1/routes", Self.user)
            let replaced = try client.request("PUT", "/v1/routes", json: ["routes": [Self.login, ["path": "/b"]]])
            #expect(replaced.status == 200)
            #expect(
                replaced.json == [
                    "registered": [["name": "login", "pattern": "/login"], ["name": nil, "pattern": "/b"]]
                ])
            #expect(try client.get("/v1/routes").json?["routes"]?.arrayValue?.count == 2)
            // Atomic: a bad set changes nothing.
            let bad = try client.request("PUT", "/v1/routes", json: ["routes": [["path": "/c"], ["path": "/c"]]])
            #expect(bad.errorCode == "route_conflict")
            #expect(try client.get("/v1/routes").json?["routes"]?.arrayValue?.count == 2)
            #expect(try client.request("PUT", "/v1/routes", json: ["routes": 1]).errorCode == "invalid_request")
        }
    }

    @Test func resolveByURLAndByName() throws {
        try withServer { (server) throws in
            let client = server.client()
            _ = try client.post("/v1/routes", Self.user)
            let resolved = try client.post(
                "/v1/resolve", ["url": "myapp://users/42?tab=posts#top", "context": ["loggedIn": true]])
            #expect(resolved.status == 200)
            #expect(
                resolved.json
                    == [
                        "location": "/users/42?tab=posts", "path": "/users/42",
                        "route": ["name": "user", "pattern": "/users/:id"], "params": ["id": "42"],
                        "query": ["tab": "posts"], "queryItems": [["tab", "posts"]],
                        "destination": ["screen": "UserProfile"], "presentation": "push",
                        "matches": [["pattern": "/users/:id", "name": "user", "location": "/users/42"]],
                        "redirects": [],
                    ])
            let byName = try client.post(
                "/v1/resolve",
                ["name": "userPost", "params": ["id": "7", "postId": "9"], "context": ["loggedIn": true]])
            #expect(byName.json?["location"] == "/users/7/posts/9")
            #expect(byName.json?["matches"]?.arrayValue?.count == 2)
            let viaGet = try client.get("/v1/resolve?url=%2Fusers%2F42%2Fposts%2F1&current=/users/42")
            // GET has no context: the guard redirects to login, which is not registered here.
            #expect(viaGet.errorCode == "no_match")
        }
    }

    /// A repeated request is answered from the answers kept (``KeptAnswers``): the same bytes, the outcome still
    /// counted each time, and every route write seen by the very next request.
    @Test func aRepeatedResolutionIsKeptAndFollowsEveryRouteWrite() throws {
        try withServer { (server) throws in
            let client = server.client()
            let query = "/v1/resolve?url=/promo/bf%3Futm_source%3Dpush"
            // Kept the second time it is worked out, answered from what was kept the third time.
            for _ in 0..<3 { #expect(try client.get(query).errorCode == "no_match") }
            #expect(try client.post("/v1/routes", ["path": "/promo/:code", "name": "promo"]).status == 201)
            let first = try client.get(query)
            #expect(first.status == 200)
            #expect(first.json?["route"]?["name"] == "promo")
            #expect(first.json?["query"] == ["utm_source": "push"])
            let again = try client.get(query)
            #expect(again.status == 200 && again.body == first.body)
            #expect(again.header("content-type") == "application/json; charset=utf-8")
            // A write that changes the answer: the same request now redirects.
            let sale: JSONValue = [
                "routes": [
                    ["path": "/promo/:code", "name": "promo", "redirect": [["to": "/sale/{code}"]]],
                    ["path": "/sale/:code", "name": "sale"],
                ]
            ]
            #expect(try client.request("PUT", "/v1/routes", json: sale).status == 200)
            let redirected = try client.get(query)
            #expect(redirected.json?["route"]?["name"] == "sale")
            #expect(redirected.json?["redirects"]?.arrayValue?.count == 1)
            // The same for POST, by the body's bytes; a request refused before resolving is not an outcome.
            let body: JSONValue = ["url": "/sale/x"]
            for _ in 0..<3 { #expect(try client.post("/v1/resolve", body).json?["route"]?["name"] == "sale") }
            #expect(try client.request("DELETE", "/v1/routes/sale").status == 204)
            #expect(try client.post("/v1/resolve", body).errorCode == "no_match")
            for _ in 0..<3 { #expect(try client.get("/v1/resolve?current=/x").errorCode == "invalid_request") }
            let metrics = try client.get("/metrics").text
            // Worked out: the first two of each request, and the first after each route write (its request was seen
            // before, so it is kept at once).
            #expect(metrics.contains(#"linkserver_resolve_answers_total{source="kept"} 4"#))
            #expect(metrics.contains(#"linkserver_resolve_answers_total{source="resolved"} 9"#))
            #expect(metrics.contains(#"linkserver_resolve_outcomes_total{outcome="no_match"} 4"#))
            #expect(metrics.contains(#"linkserver_resolve_outcomes_total{outcome="resolved"} 5"#))
            #expect(metrics.contains(#"linkserver_resolve_outcomes_total{outcome="redirected"} 1"#))
            #expect(
                !metrics.contains(#"outcome="invalid_request"} 1"#)
                    && !metrics.contains(#"outcome="invalid_request"} 3"#))
        }
    }

    @Test func sameRouteIsReportedForTheCurrentLocation() throws {
        try withServer { (server) throws in
            let client = server.client()
            _ = try client.post("/v1/routes", ["path": "/items/:id", "name": "item", "sameRoute": "update"])
            let same = try client.get("/v1/resolve?url=/items/2&current=/items/1")
            #expect(same.json?["sameRoute"] == "update")
            let other = try client.get("/v1/resolve?url=/items/2&current=/elsewhere")
            #expect(other.status == 200)
            #expect(other.json?["sameRoute"] == nil)
            #expect(try client.get("/v1/resolve?url=/items/2&current=%zz").errorCode == "invalid_url")
            // §3: each of `none`, `update` and `new` is the route's value; `new` is the default.
            _ = try client.post("/v1/routes", ["path": "/still/:id", "name": "still", "sameRoute": "none"])
            _ = try client.post("/v1/routes", ["path": "/plain/:id", "name": "plain"])
            #expect(try client.get("/v1/resolve?url=/still/2&current=/still/1").json?["sameRoute"] == "none")
            #expect(try client.get("/v1/resolve?url=/plain/2&current=/plain/1").json?["sameRoute"] == "new")
            #expect(try client.get("/v1/routes/still").json?["sameRoute"] == "none")
            #expect(try client.get("/v1/routes/plain").json?["sameRoute"] == "new")
            let unknown = try client.post("/v1/routes", ["path": "/odd", "sameRoute": "sometimes"])
            #expect(unknown.status == 400)
        }
    }

    @Test func redirectErrors() throws {
        try withServer { (server) throws in
            let client = server.client()
            _ = try client.post("/v1/routes", Self.user)
            _ = try client.post("/v1/routes", Self.login)
            let intercepted = try client.post("/v1/resolve", ["url": "/users/0", "context": ["loggedIn": true]])
            #expect(intercepted.status == 403)
            #expect(intercepted.errorCode == "intercepted")
            #expect(intercepted.errorDetails?["route"] == "user")
            #expect(intercepted.errorDetails?["rule"] == 1)
            #expect(intercepted.errorDetails?["location"] == "/users/0")
            let redirected = try client.post("/v1/resolve", ["url": "/users/5"])
            #expect(redirected.json?["route"]?["name"] == "login")
            #expect(redirected.json?["redirects"]?.arrayValue?.first?["route"] == "user")
            _ = try client.post("/v1/routes", ["path": "/ping", "redirect": [["to": "/pong"]]])
            _ = try client.post("/v1/routes", ["path": "/pong", "redirect": [["to": "/ping"]]])
            let loop = try client.get("/v1/resolve?url=/ping")
            #expect(loop.status == 508)
            #expect(loop.errorCode == "redirect_loop")
            #expect(loop.errorDetails?["chain"]?.arrayValue?.first == "/ping")
            for hop in 0..<7 {
                let route: JSONValue = ["path": .string("/hop\(hop)"), "redirect": [["to": .string("/hop\(hop + 1)")]]]
                _ = try client.post("/v1/routes", route)
            }
            let limit = try client.get("/v1/resolve?url=/hop0")
            #expect(limit.status == 508)
            #expect(limit.errorCode == "redirect_limit")
            #expect(limit.errorDetails?["limit"] == 5)
            let lowered = try client.post("/v1/resolve", ["url": "/hop5", "redirectLimit": 1])
            #expect(lowered.errorCode == "redirect_limit")
            #expect(lowered.errorDetails?["limit"] == 1)
            let failing = try client.post(
                "/v1/routes", ["path": "/bad", "name": "bad", "redirect": [["when": ["+": ["x", 1]], "to": "/"]]])
            #expect(failing.status == 201)
            let ruleError = try client.get("/v1/resolve?url=/bad")
            #expect(ruleError.status == 422)
            #expect(ruleError.errorCode == "rule_error")
            // §1: details `type` is the JSON Logic error type; api-notes adds the route and the rule's index.
            #expect(ruleError.errorDetails?["type"] == "NaN")
            #expect(ruleError.errorDetails?["route"] == "bad")
            #expect(ruleError.errorDetails?["rule"] == 0)
            let thrown = try client.post(
                "/v1/routes", ["path": "/thrown", "redirect": [["when": ["throw": "gone"], "to": "/"]]])
            #expect(thrown.status == 201)
            #expect(try client.get("/v1/resolve?url=/thrown").errorDetails?["type"] == "gone")
        }
    }

    /// §3: the redirect limit is `routing.redirectLimit` from the configuration, not a constant: 7 hops resolve
    /// under a limit of 7, and an 8th is 508 `redirect_limit` naming that limit.
    @Test func theConfiguredRedirectLimitHolds() throws {
        try withServer({ $0.redirectLimit = 7 }) { (server) throws in
            let client = server.client()
            for hop in 0..<8 {
                let route: JSONValue = ["path": .string("/hop\(hop)"), "redirect": [["to": .string("/hop\(hop + 1)")]]]
                #expect(try client.post("/v1/routes", route).status == 201)
            }
            #expect(try client.post("/v1/routes", ["path": "/hop8", "name": "end"]).status == 201)
            let seven = try client.get("/v1/resolve?url=/hop1")
            #expect(seven.status == 200)
            #expect(seven.json?["route"]?["name"] == "end")
            #expect(seven.json?["redirects"]?.arrayValue?.count == 7)
            let eight = try client.get("/v1/resolve?url=/hop0")
            #expect(eight.status == 508)
            #expect(eight.errorCode == "redirect_limit")
            #expect(eight.errorDetails?["limit"] == 7)
        }
    }

    @Test func resolutionErrors() throws {
        try withServer { (server) throws in
            let client = server.client()
            _ = try client.post("/v1/routes", Self.user)
            let noMatch = try client.get("/v1/resolve?url=/nowhere")
            #expect(noMatch.status == 404)
            #expect(noMatch.errorCode == "no_match")
            #expect(try client.get("/v1/resolve?url=/users/%E0").errorCode == "invalid_url")
            #expect(try client.get("/v1/resolve").errorCode == "invalid_request")
            #expect(try client.post("/v1/resolve", ["url": ""]).errorCode == "invalid_url")
            #expect(try client.post("/v1/resolve", ["url": "/x", "name": "user"]).errorCode == "invalid_request")
            #expect(try client.post("/v1/resolve", ["name": "nobody"]).errorCode == "unknown_name")
            // Spaces around a URL or a name are refused, never kept as segment text.
            #expect(try client.post("/v1/resolve", ["url": "/users/1 "]).errorCode == "invalid_url")
            #expect(try client.get("/v1/resolve?url=%20/users/1").errorCode == "invalid_url")
            #expect(try client.post("/v1/resolve", ["name": "user "]).errorCode == "invalid_request")
            #expect(try client.post("/v1/locate", ["name": " user"]).errorCode == "invalid_request")
        }
    }

    @Test func matchOnlyAndHashMode() throws {
        try withServer { (server) throws in
            let client = server.client()
            let guarded: JSONValue = [
                "path": "/users/:id", "name": "user",
                "redirect": [["when": ["==": [["var": "params.id"], "0"]], "action": "intercept"]],
            ]
            #expect(try client.post("/v1/routes", guarded).status == 201)
            #expect(try client.get("/v1/resolve?url=/users/0").errorCode == "intercepted")
            let matched = try client.post("/v1/resolve", ["url": "/users/0", "evaluate": false])
            #expect(matched.status == 200)
            #expect(matched.json?["route"]?["name"] == "user")
            #expect(try client.get("/v1/resolve?url=/users/0&evaluate=false").json?["params"] == ["id": "0"])
            #expect(try client.get("/v1/resolve?url=/users/0&evaluate=no").errorCode == "invalid_request")
            // Hash mode is opt-in: off, the fragment is ignored (API.md §2).
            let url = "https%3A%2F%2Fx.com%2F%23%2Fusers%2F42%3Ftab%3D1"
            #expect(try client.get("/v1/resolve?url=\(url)").errorCode == "no_match")
            let hash = try client.get("/v1/resolve?url=\(url)&hashMode=true")
            #expect(hash.json?["location"] == "/users/42?tab=1")
            #expect(
                try client.post("/v1/resolve", ["url": "https://x.com/#/users/7", "hashMode": true]).json?["params"]
                    == ["id": "7"])
        }
    }

    @Test func aRedirectToAnUnknownNameIsUnknownName() throws {
        try withServer { (server) throws in
            let client = server.client()
            let route: JSONValue = ["path": "/old", "redirect": [["to": ["name": "missing"]]]]
            #expect(try client.post("/v1/routes", route).status == 201)
            let reply = try client.get("/v1/resolve?url=/old")
            #expect(reply.status == 404)
            #expect(reply.errorCode == "unknown_name")
            #expect(reply.json?["error"]?["details"]?["chain"] == ["/old"])
        }
    }

    @Test func locateBuildsEncodedLocations() throws {
        try withServer { (server) throws in
            let client = server.client()
            _ = try client.post("/v1/routes", Self.user)
            let located = try client.post(
                "/v1/locate", ["name": "userPost", "params": ["id": "a/b", "postId": "清华"], "query": ["q": "x y"]])
            #expect(located.status == 200)
            #expect(located.json == ["location": "/users/a%2Fb/posts/%E6%B8%85%E5%8D%8E?q=x%20y"])
            let missing = try client.post("/v1/locate", ["name": "userPost"])
            #expect(missing.status == 400)
            #expect(missing.errorCode == "missing_params")
            #expect(missing.errorDetails?["missing"] == ["id", "postId"])
            let unexpected = try client.post("/v1/locate", ["name": "user", "params": ["id": "1", "extra": "2"]])
            #expect(unexpected.errorCode == "unexpected_params")
            #expect(unexpected.errorDetails?["unexpected"] == ["extra"])
            #expect(try client.post("/v1/locate", ["name": "nobody"]).errorCode == "unknown_name")
        }
    }

    @Test func adminTokenGuardsRouteWrites() throws {
        try withServer({ $0.adminToken = "admin" }) { (server) throws in
            let client = server.client()
            #expect(try client.post("/v1/routes", Self.login).status == 401)
            #expect(try client.request("DELETE", "/v1/routes/login").status == 401)
            #expect(try client.post("/v1/routes", Self.login, headers: ["Authorization": "Bearer admin"]).status == 201)
            #expect(try client.get("/v1/routes").status == 200)
            #expect(try client.get("/v1/resolve?url=/login").status == 200)
        }
    }

    @Test func apiRoutesSurviveARestartAndConfigRoutesAreReadOnly() throws {
        let dataDir = TestServer.temporaryDirectory()
        let routesFile = dataDir + "/routes.json"
        try Data(#"{"routes": [{"path": "/login", "name": "login"}]}"#.utf8).write(to: URL(fileURLWithPath: routesFile))
        try withServer(dataDir: dataDir, { $0.routesFile = routesFile }) { (server) throws in
            let client = server.client()
            #expect(try client.post("/v1/routes", Self.user).status == 201)
            let readOnly = try client.request("DELETE", "/v1/routes/login")
            #expect(readOnly.status == 409)
            #expect(readOnly.errorCode == "read_only")
            #expect(try client.get("/v1/routes/login").json?["source"] == "config")
        }
        try withServer(dataDir: dataDir, { $0.routesFile = routesFile }) { (server) throws in
            let routes = try server.client().get("/v1/routes").json?["routes"]?.arrayValue ?? []
            #expect(routes.map { $0["name"] } == ["login", "user", "userPost"])
        }
    }

    @Test func conflictBetweenRoutesFileAndStoreStopsTheStart() throws {
        let dataDir = TestServer.temporaryDirectory()
        try withServer(dataDir: dataDir) { (server) throws in
            #expect(try server.client().post("/v1/routes", ["path": "/users/:id", "name": "user"]).status == 201)
        }
        let routesFile = dataDir + "/routes.json"
        try Data(#"{"routes": [{"path": "/users/:uid", "name": "member"}]}"#.utf8).write(
            to: URL(fileURLWithPath: routesFile))
        let process = try ServerProcess(arguments: [
            "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", routesFile,
        ])
        #expect(try process.waitForExit() == 2)
        // §3: the error names both routes.
        #expect(process.log.contains("/users/:id"), "\(process.log)")
        #expect(process.log.contains("/users/:uid"), "\(process.log)")
    }
}
