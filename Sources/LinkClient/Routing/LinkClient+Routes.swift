extension LinkClient {
    /// Every route, flattened (children with their full pattern).
    public func routes() async throws -> [Route] {
        try await wire.call("listRoutes") { client in
            try JSONBridge.convert(try await client.listRoutes().ok.body.json.routes)
        }
    }

    /// One route by name.
    public func route(named name: String) async throws -> Route {
        try await wire.call("getRoute") { client in
            try JSONBridge.convert(try await client.getRoute(path: .init(name: name)).ok.body.json)
        }
    }

    /// Registers a route tree, all or nothing (a write: needs the admin token when one is set). Returns the
    /// routes registered, the root first.
    @discardableResult
    public func register(_ route: RouteDefinition) async throws -> [Resolution.RouteRef] {
        let body: Components.Schemas.RouteDefinition = try JSONBridge.request(route, for: "registerRoute")
        return try await wire.call("registerRoute") { client in
            try JSONBridge.convert(try await client.registerRoute(body: .json(body)).created.body.json.registered)
        }
    }

    /// Replaces every API-registered route with `routes`, atomically (config routes stay).
    public func replaceRoutes(with routes: [RouteDefinition]) async throws {
        let body: Components.Schemas.RoutesReplace = try JSONBridge.request(["routes": routes], for: "replaceRoutes")
        _ = try await wire.call("replaceRoutes") { client in try await client.replaceRoutes(body: .json(body)).ok }
    }

    /// Removes a route and its children, by name.
    public func deleteRoute(named name: String) async throws {
        _ = try await wire.call("deleteRoute") { client in
            try await client.deleteRoute(path: .init(name: name)).noContent
        }
    }

    /// Removes a route and its children, by pattern (parameter names may differ).
    public func deleteRoute(pattern: String) async throws {
        _ = try await wire.call("deleteRouteByPattern") { client in
            try await client.deleteRouteByPattern(query: .init(pattern: pattern)).noContent
        }
    }
}
