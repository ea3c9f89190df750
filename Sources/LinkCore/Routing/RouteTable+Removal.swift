extension RouteTable {
    /// The table without the route named `name` and its children (`DELETE /v1/routes/{name}`), and those routes.
    ///
    /// - Throws: `unknown_name`; `read_only` when `requester` is `.api` and the route came from the config.
    public func removing(named name: String, by requester: RouteSource = .api) throws(LinkError)
        -> (table: RouteTable, removed: [Route])
    {
        guard let index = byName[name] else {
            throw LinkError(.unknownName, "No route is named '\(name)'", details: ["name": .string(name)])
        }
        return try removing(at: index, by: requester)
    }

    /// The table without the route with `pattern` (parameter names ignored) and its children
    /// (`DELETE /v1/routes?pattern=…`), and those routes.
    ///
    /// - Throws: `invalid_pattern`; `no_match` when no route has that pattern; `read_only` as for names.
    public func removing(pattern text: String, by requester: RouteSource = .api) throws(LinkError)
        -> (table: RouteTable, removed: [Route])
    {
        let pattern = try Pattern(text)
        guard let index = index(of: pattern) else {
            throw LinkError(
                .noMatch, "No route has the pattern \(pattern)", details: ["pattern": .string(pattern.description)])
        }
        return try removing(at: index, by: requester)
    }

    private func removing(at index: Int, by requester: RouteSource) throws(LinkError)
        -> (table: RouteTable, removed: [Route])
    {
        let route = routes[index]
        if requester == .api && route.source == .config {
            throw LinkError(
                .readOnly, "Route \(route.pattern) comes from the config file and cannot be changed through the API",
                details: [
                    "pattern": .string(route.pattern.description), "name": route.name.map(JSONValue.string) ?? .null,
                ])
        }
        let removed = routes.filter { $0.chain.contains(index) }
        var copy = self
        copy.removeAll { $0.chain.contains(index) }
        copy.rebuild()
        return (copy, removed)
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
