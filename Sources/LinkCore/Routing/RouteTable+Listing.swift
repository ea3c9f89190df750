extension RouteTable {
    /// `{"routes": [...]}` for `GET /v1/routes`: every route flattened, in table order.
    public func json() -> JSONValue {
        ["routes": .array(routes.indices.map { json(ofRouteAt: $0) })]
    }

    /// One route as listed (`GET /v1/routes/{name}`), see ``Route/json(parentPattern:)``.
    public func json(ofRouteAt index: Int) -> JSONValue {
        let route = routes[index]
        return route.json(parentPattern: route.parentIndex.map { routes[$0].pattern })
    }

    /// The trees of `source` as definitions, as they stand after removals — what to persist, and what
    /// ``replaceRoutes(from:with:)`` takes back at start.
    public func definitions(from source: RouteSource) -> [RouteDefinition] {
        var children = [[Int]](repeating: [], count: routes.count)
        var roots: [Int] = []
        for (index, route) in routes.enumerated() where route.source == source {
            if let parent = route.parentIndex { children[parent].append(index) } else { roots.append(index) }
        }
        func tree(_ index: Int) -> RouteDefinition {
            var definition = routes[index].definition
            definition.routes = children[index].map(tree)
            return definition
        }
        return roots.map(tree)
    }
}
