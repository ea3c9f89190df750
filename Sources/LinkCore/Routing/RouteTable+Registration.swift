extension RouteTable {
    /// The table with a route tree registered, all or nothing, and its routes root first (`POST /v1/routes`).
    ///
    /// - Throws: `invalid_pattern`, `invalid_rule` (a template naming a parameter the route does not have),
    ///   `route_conflict` (details `pattern`, existing `name`, `existingPattern`, `existingSource`) when a route
    ///   already has the same pattern — parameter names ignored, and for two case-insensitive routes, case
    ///   too — and `name_conflict` (details `name`, existing `pattern`) when the name is taken.
    public func registering(_ definition: RouteDefinition, source: RouteSource) throws(LinkError)
        -> (table: RouteTable, registered: [RegisteredRoute])
    {
        var copy = self
        var registered: [RegisteredRoute] = []
        try copy.append(definition, parent: nil, source: source, field: "", registered: &registered)
        copy.rebuild()
        return (copy, registered)
    }

    /// The table with every route of `source` replaced by the trees `definitions`, all or nothing
    /// (`PUT /v1/routes`), and the new routes.
    public func replacingRoutes(from source: RouteSource, with definitions: [RouteDefinition])
        throws(LinkError) -> (table: RouteTable, registered: [RegisteredRoute])
    {
        var copy = self
        // Rebuild the indexes the conflict checks use only when routes were removed (a full rebuild is the
        // costly part of loading 100k routes).
        if copy.routes.contains(where: { $0.source == source }) {
            copy.removeAll { $0.source == source }
            copy.rebuild()
        }
        var registered: [RegisteredRoute] = []
        for (index, definition) in definitions.enumerated() {
            try copy.append(definition, parent: nil, source: source, field: "routes[\(index)]", registered: &registered)
        }
        copy.rebuild()
        return (copy, registered)
    }

    /// Appends `definition` and its children after checking each against the table so far.
    private mutating func append(
        _ definition: RouteDefinition, parent: Int?, source: RouteSource, field: String,
        registered: inout [RegisteredRoute]
    ) throws(LinkError) {
        let pattern: Pattern
        if let parent {
            pattern = try routes[parent].pattern.appending(definition.path)
        } else {
            pattern = try Pattern(definition.path)
        }
        if case .literal(let first) = pattern.segments.first, RouteTable.reservedFirstSegments.contains(first) {
            throw LinkError(
                .invalidPattern, "Routes may not start with '/\(first)': the public listener serves that path itself",
                details: ["pattern": .string(pattern.description), "reason": .string("reserved path")])
        }
        let caseInsensitive = definition.caseInsensitive ?? parent.map { routes[$0].caseInsensitive } ?? false
        var own = definition
        own.routes = []
        own.redirect = []
        for (index, rule) in definition.redirect.enumerated() {
            let ruleField = (field.isEmpty ? "" : field + ".") + "redirect[\(index)]"
            own.redirect.append(try rule.validated(against: pattern, field: ruleField))
        }
        let link = try definition.link.map { (link) throws(LinkError) in
            try RouteLink(
                link, pattern: pattern, policy: linkPolicy, field: (field.isEmpty ? "" : field + ".") + "link")
        }
        let route = Route(
            pattern: pattern, source: source, definition: own, caseInsensitive: caseInsensitive,
            parentIndex: parent, chain: [], link: link)
        try checkConflicts(route)

        let index = routes.count
        routes.append(route)
        if let name = route.name { byName[name] = index }
        byShape[pattern.shape()] = index
        if caseInsensitive { byFoldedShape[route.foldedShape] = index }
        registered.append(RegisteredRoute(name: route.name, pattern: pattern))

        for (childIndex, child) in definition.routes.enumerated() {
            let childField = (field.isEmpty ? "" : field + ".") + "routes[\(childIndex)]"
            try append(child, parent: index, source: source, field: childField, registered: &registered)
        }
    }

    /// First segments the public listener keeps for itself (API.md §7).
    static let reservedFirstSegments: Set<String> = [".well-known", "robots.txt", "favicon.ico"]

    private func checkConflicts(_ route: Route) throws(LinkError) {
        let existing =
            byShape[route.pattern.shape()] ?? (route.caseInsensitive ? byFoldedShape[route.foldedShape] : nil)
        if let existing {
            let other = routes[existing]
            let newName = route.name.map { "'\($0)' " } ?? ""
            let otherName = other.name.map { "'\($0)' " } ?? ""
            throw LinkError(
                .routeConflict,
                "Route \(newName)(\(route.pattern)) conflicts with \(other.source.rawValue) route \(otherName)(\(other.pattern))",
                details: [
                    "pattern": .string(route.pattern.description),
                    "name": other.name.map(JSONValue.string) ?? .null,
                    "existingPattern": .string(other.pattern.description),
                    "existingSource": .string(other.source.rawValue),
                ])
        }
        if let name = route.name, let existing = byName[name] {
            throw LinkError(
                .nameConflict, "The name '\(name)' is already bound to \(routes[existing].pattern)",
                details: [
                    "name": .string(name), "pattern": .string(routes[existing].pattern.description),
                    "requestedPattern": .string(route.pattern.description),
                ])
        }
    }
}
