import LinkCore
import Synchronization

/// The live route table: a ``LiveState`` of the ``Resolver``, whose writes commit the API routes to the store.
final class LiveRoutes: Sendable {
    private let state: LiveState<Resolver>
    private let store: any Store

    /// Loads the config routes (`source: "config"`) and the API routes kept in the store.
    /// A conflict between the two is a ``ConfigError`` naming both.
    init(
        configRoutes: [RouteDefinition], store: any Store, hosts: HostAllowList?, redirectLimit: Int,
        linkPolicy: LinkPolicy = LinkPolicy()
    ) throws {
        self.store = store
        var table = RouteTable()
        table.linkPolicy = linkPolicy
        do {
            table = try table.replacingRoutes(from: .config, with: configRoutes).table
        } catch {
            throw ConfigError("invalid routes file: \(error.message)\(LiveRoutes.describe(error.details))")
        }
        // The revision first: a change committed in between is then re-read, never missed (API.md §12).
        let revision = try store.revisions()[.routes] ?? 0
        let trees = try store.loadRouteTrees()
        do throws(LinkError) {
            // One replace for every stored tree: registering them one by one would rebuild the table each time.
            let stored = try trees.map { (tree) throws(LinkError) in try RouteDefinition(json: tree) }
            if !stored.isEmpty { table = try table.replacingRoutes(from: .api, with: stored, stored: true).table }
        } catch {
            throw ConfigError(
                "the routes kept in the store do not load (beside the routes file's, if any): \(error.message)"
                    + LiveRoutes.describe(error.details))
        }
        state = LiveState(
            Resolver(table: table, hosts: hosts, redirectLimit: redirectLimit), revision: revision,
            refreshesBeforeWrites: store.isShared
        ) {
            [store] current in try LiveRoutes.reload(current, from: store)
        }
    }

    private static func describe(_ details: JSONObject) -> String {
        details.isEmpty ? "" : " " + JSONValue.object(details).encodedString()
    }

    /// Checks run on every new table before it is committed (the association files' size limit).
    private let checks = Mutex<[@Sendable (RouteTable) throws(LinkError) -> Void]>([])

    /// Adds a check every route write must pass; it also runs now on the table loaded at start.
    func addCheck(_ check: @escaping @Sendable (RouteTable) throws(LinkError) -> Void) throws(LinkError) {
        try check(resolver.table)
        checks.withLock { $0.append(check) }
    }

    /// The current resolver (a value: later writes do not change it).
    var resolver: Resolver { state.value }

    /// Runs `body` with the current resolver, lent from the published snapshot rather than copied out of it (a copy
    /// retains every part of the route table).
    func withResolver<Result, Failure: Error>(
        _ body: (borrowing Resolver) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.snapshot.lend(body)
    }

    /// The published snapshot: the resolver (``LiveState/Snapshot/lend(_:)``) and its serial, which changes with
    /// every published table, for what is kept per table.
    var published: LiveState<Resolver>.Snapshot { state.snapshot }

    var count: Int { resolver.table.count }

    /// Computes a new table from the current one with `change` (which also answers what changed), commits the API
    /// routes, then publishes the new table.
    ///
    /// With a shared store, the commit succeeds only when no other instance changed the routes since this table
    /// was read; otherwise the routes are re-read and `change` runs again on them.
    func write<T>(_ change: (RouteTable) throws(LinkError) -> (RouteTable, T)) throws -> T {
        try state.write { current in
            var resolver = current.value
            let result: T
            (resolver.table, result) = try change(resolver.table)
            for check in checks.withLock({ $0 }) { try check(resolver.table) }
            let trees = resolver.table.definitions(from: .api).map { $0.json() }
            return .init(resolver, result: result) { [store] in
                try store.replaceRouteTrees(trees, ifRevision: current.revision)
            }
        }
    }

    /// Replaces the routes that came from the routes file (a reload on SIGHUP); all or nothing, with the same checks
    /// as at start (a conflict with an API route, the association files' size).
    func replaceConfigRoutes(_ definitions: [RouteDefinition]) throws {
        _ = try write { (table) throws(LinkError) in try table.replacingRoutes(from: .config, with: definitions) }
    }

    /// Re-reads the API routes when the store's revision differs from the published one (another instance
    /// changed them) and publishes them; answers whether anything was published.
    @discardableResult
    func refresh() throws -> Bool { try state.refresh() }

    /// The table with the API routes another instance committed, or nil when the store holds `current`'s revision.
    private static func reload(_ current: LiveState<Resolver>.Snapshot, from store: any Store) throws
        -> LiveState<Resolver>.Snapshot?
    {
        let revision = try store.revisions()[.routes] ?? 0
        guard revision != current.revision else { return nil }
        let trees = try store.loadRouteTrees()
        var resolver = current.value
        let stored = try trees.map { (tree) throws(LinkError) in try RouteDefinition(json: tree) }
        resolver.table = try resolver.table.replacingRoutes(from: .api, with: stored, stored: true).table
        return .init(resolver, revision: revision)
    }
}
