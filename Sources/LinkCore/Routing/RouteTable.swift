/// The routes of the service as an immutable value (ARCHITECTURE.md): change a copy, then swap the snapshot.
///
/// Every change rebuilds the name and pattern indexes and the ``SegmentTrie`` from the route list, so a
/// lookup never pays for a change. Routes are listed in registration order, each tree root first then its
/// children depth-first (config routes first after a `replaceRoutes`).
public struct RouteTable: Sendable {
    /// Every route, flattened; a parent always comes before its children.
    public internal(set) var routes: [Route] = []
    var byName: [String: Int] = [:]
    /// Pattern with parameter names ignored → route.
    var byShape: [Pattern.ShapeKey: Int] = [:]
    /// Lower-cased shape of case-insensitive routes → route.
    var byFoldedShape: [String: Int] = [:]
    /// The matcher over ``routes`` (an entry is a route's index). The bare index, not a ``SegmentTrie``: that would
    /// keep a second list of the patterns.
    var trie = SegmentTrieBuilder().freeze()
    /// The settings `link` templates are checked against (the apps' URL schemes).
    public var linkPolicy = LinkPolicy()

    /// An empty table.
    public init() {}

    /// The number of routes.
    public var count: Int { routes.count }

    /// The route named `name`.
    public func route(named name: String) -> Route? {
        byName[name].map { routes[$0] }
    }

    /// The index of the route named `name`.
    public func index(named name: String) -> Int? { byName[name] }

    /// The route registered under `pattern` (parameter names ignored; case ignored for a case-insensitive
    /// route).
    public func index(of pattern: Pattern) -> Int? {
        byShape[Pattern.ShapeKey(pattern: pattern)] ?? byFoldedShape[pattern.shape(caseInsensitive: true)]
    }

    /// The best route for a location and its parameters; `nil` when none matches.
    public func match(_ location: Location) -> (index: Int, params: PathParameters)? {
        // Trie entries are the routes, in order: the entry index is the route index.
        guard let index = trie.firstIndex(matching: location.segments) else { return nil }
        return (index, routes[index].pattern.parameters(in: location.segments))
    }

    /// The location of the route named `name` with `params` and `query` (`POST /v1/locate`).
    ///
    /// - Throws: `unknown_name`, or the ``LocationBuilder`` errors (`missing_params`, `unexpected_params`).
    public func location(
        named name: String, params: ParameterValues, query: [QueryItem] = []
    ) throws(LinkError) -> Location {
        guard let route = route(named: name) else {
            throw LinkError(.unknownName, "No route is named '\(name)'", details: ["name": .string(name)])
        }
        return try LocationBuilder.location(for: route.pattern, params: params, query: query)
    }

    /// Recomputes chains, indexes and the trie from ``routes``: after routes were removed, when indices moved.
    mutating func rebuild() {
        byName = Dictionary(minimumCapacity: routes.count)
        byShape = Dictionary(minimumCapacity: routes.count)
        byFoldedShape = [:]
        for index in routes.indices {
            let route = routes[index]
            let chain = chain(of: index, under: route.parentIndex)
            if chain != route.chain { routes[index] = route.moved(parentIndex: route.parentIndex, chain: chain) }
            if let name = route.name { byName[name] = index }
            byShape[Pattern.ShapeKey(pattern: route.pattern)] = index
            if route.caseInsensitive { byFoldedShape[route.foldedShape] = index }
        }
        rebuildTrie()
    }

    /// The chain of the route at `index` whose parent is at `parent`: the parent's chain, then `index`.
    func chain(of index: Int, under parent: Int?) -> [Int] {
        (parent.map { routes[$0].chain } ?? []) + [index]
    }

    /// Recomputes the trie from ``routes``: enough after appending, which keeps chains and indexes up to date.
    mutating func rebuildTrie() {
        var builder = SegmentTrieBuilder()
        for (index, route) in routes.enumerated() {
            builder.insert(route.pattern, entry: Int32(index), caseInsensitive: route.caseInsensitive)
        }
        trie = builder.freeze()
    }
}
