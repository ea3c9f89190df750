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
        var layouts = Set<ParameterLayout>()
        try copy.append(
            definition, parent: nil, source: source, field: [], registered: &registered, layouts: &layouts)
        copy.rebuildTrie()
        return (copy, registered)
    }

    /// The table with every route of `source` replaced by the trees `definitions`, all or nothing
    /// (`PUT /v1/routes`), and the new routes. `stored`: the trees were read back from the store, registered by
    /// this or an earlier version; a check added since (``reservedStart(of:caseInsensitive:onlyExact:)``'s
    /// look-alikes) must not keep the service from starting on them.
    public func replacingRoutes(from source: RouteSource, with definitions: [RouteDefinition], stored: Bool = false)
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
        var layouts = Set<ParameterLayout>()
        for (index, definition) in definitions.enumerated() {
            try copy.append(
                definition, parent: nil, source: source, field: [index], registered: &registered,
                layouts: &layouts, stored: stored)
        }
        copy.rebuildTrie()
        return (copy, registered)
    }

    /// Appends `definition` and its children after checking each against the table so far, keeping the chains
    /// and the name and pattern indexes up to date (the trie is rebuilt once, after the last). Patterns share
    /// their parameter layouts through `layouts`.
    private mutating func append(
        _ definition: RouteDefinition, parent: Int?, source: RouteSource, field: [Int],
        registered: inout [RegisteredRoute], layouts: inout Set<ParameterLayout>, stored: Bool = false
    ) throws(LinkError) {
        let parsed: Pattern
        if let parent {
            parsed = try routes[parent].pattern.appending(definition.path)
        } else {
            parsed = try Pattern(definition.path)
        }
        let pattern = parsed.sharingLayout(&layouts)
        let caseInsensitive = definition.caseInsensitive ?? parent.map { routes[$0].caseInsensitive } ?? false
        if let first = RouteTable.reservedStart(of: pattern, caseInsensitive: caseInsensitive, onlyExact: stored) {
            throw LinkError(
                .invalidPattern, "Routes may not start with '/\(first)': the public listener serves that path itself",
                details: ["pattern": .string(pattern.description), "position": 0, "reason": .string("reserved path")])
        }
        var own = definition
        own.routes = []
        own.redirect = []
        for (index, rule) in definition.redirect.enumerated() {
            own.redirect.append(
                try rule.validated(
                    against: pattern, field: Self.fieldName(field, member: "redirect[\(index)]"), stored: stored))
        }
        let link = try definition.link.map { (link) throws(LinkError) in
            try RouteLink(
                link, pattern: pattern, policy: linkPolicy, field: Self.fieldName(field, member: "link"), stored: stored
            )
        }
        let index = routes.count
        let route = Route(
            pattern: pattern, source: source, definition: own, caseInsensitive: caseInsensitive,
            parentIndex: parent, chain: chain(of: index, under: parent), link: link)
        let shape = Pattern.ShapeKey(pattern: pattern)
        try checkConflicts(route, shape: shape)

        routes.append(route)
        if let name = route.name { byName[name] = index }
        byShape[shape] = index
        if caseInsensitive { byFoldedShape[route.foldedShape] = index }
        registered.append(RegisteredRoute(name: route.name, pattern: pattern))

        for (childIndex, child) in definition.routes.enumerated() {
            try append(
                child, parent: index, source: source, field: field + [childIndex], registered: &registered,
                layouts: &layouts, stored: stored)
        }
    }

    /// The request field of the route at `path` (its index among the trees, then among each level's children),
    /// or of its `member`: `routes[2].routes[0].link`; relative to the tree itself for a `POST` (`path` starts
    /// below its root). Built only when needed: for every route of a large file it was a noticeable share of the
    /// load.
    private static func fieldName(_ path: [Int], member: String) -> String {
        (path.map { "routes[\($0)]" } + [member]).joined(separator: ".")
    }

    /// First segments the public listener keeps for itself (API.md §7).
    static let reservedFirstSegments: Set<String> = [".well-known", "robots.txt", "favicon.ico"]
    /// A whole path the listener also answers itself (Apple's older place for the association file).
    static let reservedPath = "apple-app-site-association"

    /// The reserved first segment `pattern` would match, or `nil`: compared without case when the route is
    /// case-insensitive (`/Robots.TXT` would also match `/robots.txt`, which the listener answers itself, and the
    /// association files would still send the app there), and the one-segment `/apple-app-site-association`.
    /// `onlyExact`: the first check there was (the reserved segments as written), for routes read back from the
    /// store, which an earlier version may have accepted with a look-alike.
    static func reservedStart(of pattern: Pattern, caseInsensitive: Bool, onlyExact: Bool = false) -> String? {
        guard case .literal(let first) = pattern.segments.first else { return nil }
        if reservedFirstSegments.contains(first) { return first }
        if onlyExact { return nil }
        let compared = caseInsensitive ? first.lowercased() : first
        if reservedFirstSegments.contains(compared) { return first }
        if pattern.segments.count == 1 && compared == reservedPath { return first }
        return nil
    }

    private func checkConflicts(_ route: Route, shape: Pattern.ShapeKey) throws(LinkError) {
        let existing =
            byShape[shape] ?? (route.caseInsensitive ? byFoldedShape[route.foldedShape] : nil)
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
