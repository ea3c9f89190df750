import LinkClient
import Testing

/// Reading and writing routes; writes need the admin token.
@Suite struct RouteTests {
    @Test func registersListsReplacesAndDeletes() async throws {
        try await withLiveServer { server in
            let client = server.client()
            let registered = try await client.register(
                RouteDefinition(
                    path: "/users/:id", name: "user", destination: ["screen": "Profile"], presentation: "push",
                    caseInsensitive: true, routes: [RouteDefinition(path: "posts/:postId", name: "userPost")]))
            #expect(registered.map(\.pattern) == ["/users/:id", "/users/:id/posts/:postId"])
            let routes = try await client.routes()
            #expect(routes.map(\.name) == ["user", "userPost"])
            let user = try await client.route(named: "user")
            #expect(user.pattern == "/users/:id")
            #expect(user.source == "api")
            #expect(user.destination == ["screen": "Profile"])
            #expect(user.caseInsensitive)
            #expect(user.sameRoute == "new")
            #expect(try await client.route(named: "userPost").parent == "/users/:id")

            try await client.replaceRoutes(with: [RouteDefinition(path: "/home", name: "home")])
            #expect(try await client.routes().map(\.name) == ["home"])
            try await client.register(RouteDefinition(path: "/about"))
            try await client.deleteRoute(pattern: "/about")
            try await client.deleteRoute(named: "home")
            #expect(try await client.routes().isEmpty)
            let gone = try await #require(throws: LinkServiceError.self) { try await client.route(named: "home") }
            #expect(gone.code == .unknownName)
        }
    }

    /// A name may be `.` or `..` (§3): sent as `%2E%2E`, since URLSession would resolve `/v1/routes/..` to `/v1/`.
    @Test func aRouteNamedDotDotIsReachedByItsName() async throws {
        try await withLiveServer { server in
            let client = server.client()
            try await client.register(RouteDefinition(path: "/dots", name: ".."))
            try await client.register(RouteDefinition(path: "/dot", name: "."))
            #expect(try await client.route(named: "..").pattern == "/dots")
            #expect(try await client.route(named: ".").pattern == "/dot")
            try await client.deleteRoute(named: "..")
            #expect(try await client.routes().map(\.name) == ["."])
        }
    }

    @Test func writesWithoutTheTokenAreUnauthorizedAndConflictsAreTyped() async throws {
        try await withLiveServer { server in
            let reader = server.client(admin: false)
            let denied = try await #require(throws: LinkServiceError.self) {
                try await reader.register(RouteDefinition(path: "/x"))
            }
            #expect(denied.status == 401)
            #expect(denied.code == .unauthorized)
            #expect(try await reader.routes().isEmpty)

            let admin = server.client()
            try await admin.register(RouteDefinition(path: "/x/:id", name: "x"))
            let conflict = try await #require(throws: LinkServiceError.self) {
                try await admin.register(RouteDefinition(path: "/x/:other"))
            }
            #expect(conflict.status == 409)
            #expect(conflict.code == .routeConflict)
            #expect(conflict.details["name"] == "x")
            let invalid = try await #require(throws: LinkServiceError.self) {
                try await admin.register(RouteDefinition(path: "/x/*rest/y"))
            }
            #expect(invalid.code == .invalidPattern)
        }
    }
}
