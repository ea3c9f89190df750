import Foundation
import LinkClient
import Testing

/// Resolve, locate and rule evaluation against the real server.
@Suite struct ResolveTests {
    static let routes = [
        RouteDefinition(
            path: "/users/:id", name: "user", destination: ["screen": "UserProfile", "tabs": [1, 2]],
            presentation: "push", sameRoute: "update",
            redirect: [
                .intercept(when: ["==": [["var": "params.id"], "0"]]),
                .to("/login?from={location}", when: ["!": ["var": "context.loggedIn"]]),
            ],
            routes: [RouteDefinition(path: "posts/:postId", name: "userPost")]),
        RouteDefinition(path: "/login", name: "login", destination: ["screen": "Login"], presentation: "present"),
        RouteDefinition(path: "/u/:id", name: "legacyUser", redirect: [.to(name: "user", params: ["id": "{id}"])]),
        RouteDefinition(path: "/a", redirect: [.to("/b")]),
        RouteDefinition(path: "/b", redirect: [.to("/c")]),
        RouteDefinition(path: "/c", destination: "end"),
    ]

    static func withRoutes(_ body: (LiveServer, LinkClient) async throws -> Void) async throws {
        try await withLiveServer { server in
            let client = server.client()
            for route in routes { try await client.register(route) }
            try await body(server, client)
        }
    }

    struct Destination: Decodable, Equatable {
        let screen: String
        let tabs: [Int]
    }

    @Test func resolvesAURLWithContextIntoTypedValues() async throws {
        try await Self.withRoutes { _, client in
            let resolution = try await client.resolve(
                url: "https://links.example.com/users/42?tab=posts&tab=likes", context: ["loggedIn": true])
            #expect(resolution.location == "/users/42?tab=posts&tab=likes")
            #expect(resolution.path == "/users/42")
            #expect(resolution.route == Resolution.RouteRef(name: "user", pattern: "/users/:id"))
            #expect(resolution.params == ["id": "42"])
            #expect(resolution.query == ["tab": "likes"])
            #expect(
                resolution.queryItems == [
                    QueryItem(name: "tab", value: "posts"), QueryItem(name: "tab", value: "likes"),
                ])
            #expect(resolution.presentation == "push")
            #expect(
                try resolution.destination.decode(Destination.self) == Destination(screen: "UserProfile", tabs: [1, 2]))
            #expect(resolution.matches.map(\.pattern) == ["/users/:id"])
            #expect(resolution.redirects.isEmpty)
            #expect(resolution.sameRoute == nil)
        }
    }

    @Test func redirectRulesReadTheContext() async throws {
        try await Self.withRoutes { _, client in
            let anonymous = try await client.resolve(url: "/users/42")
            #expect(anonymous.location == "/login?from=/users/42")
            #expect(anonymous.route.name == "login")
            #expect(anonymous.redirects.first?.route == "user")
            #expect(anonymous.redirects.first?.rule == 1)
        }
    }

    @Test func resolvesByNameWithCurrent() async throws {
        try await Self.withRoutes { _, client in
            let resolution = try await client.resolve(
                name: "userPost", params: ["id": "a/b", "postId": "7"], query: ["x": "1"],
                context: ["loggedIn": true], current: "/users/a%2Fb/posts/3")
            #expect(resolution.location == "/users/a%2Fb/posts/7?x=1")
            #expect(resolution.params == ["id": "a/b", "postId": "7"])
            #expect(resolution.matches.map(\.name) == ["user", "userPost"])
            #expect(resolution.sameRoute == "new")
            let same = try await client.resolve(url: "/users/1", context: ["loggedIn": true], current: "/users/2")
            #expect(same.sameRoute == "update")
        }
    }

    @Test func redirectLimitAndRedirectsByName() async throws {
        try await Self.withRoutes { _, client in
            let legacy = try await client.resolve(url: "/u/5", context: ["loggedIn": true])
            #expect(legacy.location == "/users/5")
            #expect(
                legacy.redirects == [Resolution.Redirect(from: "/u/5", to: "/users/5", route: "legacyUser", rule: 0)])
            #expect(try await client.resolve(url: "/a").destination == "end")
            let error = try await #require(throws: LinkServiceError.self) {
                try await client.resolve(url: "/a", redirectLimit: 1)
            }
            #expect(error.status == 508)
            #expect(error.code == .redirectLimit)
            #expect(error.details["chain"] == ["/a", "/b", "/c"])
        }
    }

    @Test func errorsCarryStatusCodeMessageAndDetails() async throws {
        try await Self.withRoutes { _, client in
            let noMatch = try await #require(throws: LinkServiceError.self) {
                try await client.resolve(url: "/nothing")
            }
            #expect(noMatch.status == 404)
            #expect(noMatch.code == .noMatch)
            #expect(!noMatch.message.isEmpty)
            #expect(noMatch.details["location"] == "/nothing")
            let intercepted = try await #require(throws: LinkServiceError.self) {
                try await client.resolve(url: "/users/0")
            }
            #expect(intercepted.status == 403)
            #expect(intercepted.code == .intercepted)
            #expect(intercepted.details["route"] == "user")
            let missing = try await #require(throws: LinkServiceError.self) {
                try await client.resolve(name: "userPost", params: ["id": "1"])
            }
            #expect(missing.code == .missingParams)
            #expect(missing.details["missing"] == ["postId"])
            let badURL = try await #require(throws: LinkServiceError.self) { try await client.resolve(url: "/a%zz") }
            #expect(badURL.code == .invalidURL)
        }
    }

    @Test func transportErrorsAreApart() async throws {
        // A port nothing listens on, held for the test: a port released by a stopped server was once taken by
        // another test's server at once, which answered 404.
        let refusing = RefusingPort()
        let client = LinkClient(baseURL: URL(string: "http://127.0.0.1:\(refusing.port)")!)
        let error = try await #require(throws: LinkTransportError.self) { try await client.resolve(url: "/x") }
        #expect(error.kind == .connection)
        #expect(error.operation == "resolve")
        withExtendedLifetime(refusing) {}
    }

    @Test func locateBuildsALocationWithoutRedirects() async throws {
        try await Self.withRoutes { _, client in
            #expect(try await client.locate(name: "user", params: ["id": "清华"]) == "/users/%E6%B8%85%E5%8D%8E")
            let login = try await client.locate(name: "login", query: ["from": "/a b&c"])
            #expect(login == "/login?from=/a%20b%26c")
            let unexpected = try await #require(throws: LinkServiceError.self) {
                try await client.locate(name: "login", params: ["id": "1"])
            }
            #expect(unexpected.code == .unexpectedParams)
        }
    }

    @Test func evaluatesRules() async throws {
        try await withLiveServer { server in
            let client = server.client(admin: false)
            #expect(try await client.evaluate(rule: ["+": [1, ["var": "x"]]], data: ["x": 41]) == 42)
            #expect(try await client.evaluate(rule: ["cat": ["a", "b"]]) == "ab")
            let failure = try await #require(throws: LinkServiceError.self) {
                try await client.evaluate(rule: ["throw": "boom"])
            }
            #expect(failure.status == 422)
            #expect(failure.code == .ruleError)
            #expect(failure.details["type"] == "boom")
        }
    }

    @Test func aHundredConcurrentResolvesFromOneClient() async throws {
        try await Self.withRoutes { _, client in
            let locations = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 1...100 {
                    group.addTask {
                        let resolution = try await client.resolve(url: "/users/\(index)", context: ["loggedIn": true])
                        return (index, resolution.params["id"] ?? "")
                    }
                }
                var results: [Int: String] = [:]
                for try await (index, id) in group { results[index] = id }
                return results
            }
            #expect(locations.count == 100)
            #expect(locations.allSatisfy { String($0.key) == $0.value })
        }
    }
}
