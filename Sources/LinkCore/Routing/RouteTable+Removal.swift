extension RouteTable {
    /// Removes the route named `name` and its children (`DELETE /v1/routes/{name}`); returns them.
    ///
    /// - Throws: `unknown_name`; `read_only` when `requester` is `.api` and the route came from the config.
    @discardableResult
    public mutating func remove(named name: String, by requester: RouteSource = .api) throws(LinkError) -> [Route] {
        guard let index = byName[name] else {
            throw LinkError(.unknownName, "No route is named '\(name)'", details: ["name": .string(name)])
        }
        return try remove(at: index, by: requester)
    }

    /// Removes the route with `pattern` (parameter names ignored) and its children
    /// (`DELETE /v1/routes?pattern=…`); returns them.
    ///
    /// - Throws: `invalid_pattern`; `no_match` when no route has that pattern; `read_only` as for names.
    @discardableResult
    public mutating func remove(pattern text: String, by requester: RouteSource = .api) throws(LinkError) -> [Route] {
        let pattern = try Pattern(text)
        guard let index = index(of: pattern) else {
            throw LinkError(
                .noMatch, "No route has the pattern \(pattern)", details: ["pattern": .string(pattern.description)])
        }
        return try remove(at: index, by: requester)
    }

    private mutating func remove(at index: Int, by requester: RouteSource) throws(LinkError) -> [Route] {
        let route = routes[index]
        if requester == .api && route.source == .config {
            throw LinkError(
                .readOnly, "Route \(route.pattern) comes from the config file and cannot be changed through the API",
                details: [
                    "pattern": .string(route.pattern.description), "name": route.name.map(JSONValue.string) ?? .null,
                ])
        }
        let removed = routes.filter { $0.chain.contains(index) }
        removeAll { $0.chain.contains(index) }
        rebuild()
        return removed
    }

    /// Drops the routes matching `shouldRemove` (with their descendants) and renumbers parents; indexes are
    /// stale until ``rebuild()``.
    mutating func removeAll(where shouldRemove: (Route) -> Bool) {
        var newIndex = [Int?](repeating: nil, count: routes.count)
        var kept: [Route] = []
        for (index, route) in routes.enumerated() {
            if shouldRemove(route) { continue }
            if let parent = route.parentIndex, newIndex[parent] == nil { continue }
            newIndex[index] = kept.count
            kept.append(route.moved(parentIndex: route.parentIndex.flatMap { newIndex[$0] }, chain: []))
        }
        routes = kept
    }
}
