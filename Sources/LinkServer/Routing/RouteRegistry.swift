import LinkCore
import Synchronization

/// The live route table: an immutable ``Resolver`` snapshot that readers copy under a lock held for one
/// reference copy, and that writers replace after the change is committed to the store.
final class RouteRegistry: Sendable {
    /// The published resolver, boxed so a reader copies one reference out of the lock.
    private let snapshot: Mutex<Snapshot>
    /// Serialises writers: compute the new table, commit it, then publish it.
    private let writes = Mutex(())
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
            _ = try table.replaceRoutes(from: .config, with: configRoutes)
        } catch {
            throw ConfigError("invalid routes file: \(error.message)\(RouteRegistry.describe(error.details))")
        }
        // The revision first: a change committed in between is then re-read, never missed (API.md §12).
        let revision = try store.revisions()[.routes] ?? 0
        let trees = try store.loadRouteTrees()
        do throws(LinkError) {
            // One replace for every stored tree: registering them one by one would rebuild the table each time.
            let stored = try trees.map { (tree) throws(LinkError) in try RouteDefinition(json: tree) }
            if !stored.isEmpty { _ = try table.replaceRoutes(from: .api, with: stored) }
        } catch {
            throw ConfigError(
                "a route kept in the store conflicts with the routes file: \(error.message)"
                    + RouteRegistry.describe(error.details))
        }
        snapshot = Mutex(
            Snapshot(Resolver(table: table, hosts: hosts, redirectLimit: redirectLimit), revision: revision))
    }

    private static func describe(_ details: JSONObject) -> String {
        details.isEmpty ? "" : " " + JSONValue.object(details).encodedString()
    }

    /// An immutable published resolver.
    final class Snapshot: Sendable {
        let resolver: Resolver
        /// The store's routes revision this table was read or written at.
        let revision: Int
        init(_ resolver: Resolver, revision: Int) {
            self.resolver = resolver
            self.revision = revision
        }

        func lend<Result>(_ body: (borrowing Resolver) throws -> Result) rethrows -> Result {
            try body(resolver)
        }
    }

    /// Checks run on every new table before it is committed (the association files' size limit).
    private let checks = Mutex<[@Sendable (RouteTable) throws(LinkError) -> Void]>([])

    /// Adds a check every route write must pass; it also runs now on the table loaded at start.
    func addCheck(_ check: @escaping @Sendable (RouteTable) throws(LinkError) -> Void) throws(LinkError) {
        try check(resolver.table)
        checks.withLock { $0.append(check) }
    }

    /// The current resolver and an identity that changes with every published table.
    var current: (resolver: Resolver, id: ObjectIdentifier) {
        let snapshot = snapshot.withLock { $0 }
        return (snapshot.resolver, ObjectIdentifier(snapshot))
    }

    /// The current resolver (a value: later writes do not change it).
    var resolver: Resolver { snapshot.withLock { $0 }.resolver }

    /// Runs `body` with the current resolver, lent from the published snapshot rather than copied out of it (a copy
    /// retains every part of the route table).
    func withResolver<Result>(_ body: (borrowing Resolver) throws -> Result) rethrows -> Result {
        try snapshot.withLock { $0 }.lend(body)
    }

    var count: Int { resolver.table.count }

    /// Applies `change` to a copy of the table, commits the API routes, then publishes the new table.
    ///
    /// With a shared store, the commit succeeds only when no other instance changed the routes since this table
    /// was read; otherwise the routes are re-read and `change` runs again on them.
    func write<T>(_ change: (inout RouteTable) throws(LinkError) -> T) throws -> T {
        var attempts = 0
        while true {
            do {
                return try writes.withLock { _ in
                    let current = snapshot.withLock { $0 }
                    var resolver = current.resolver
                    let result = try change(&resolver.table)
                    for check in checks.withLock({ $0 }) { try check(resolver.table) }
                    let revision = try store.replaceRouteTrees(
                        resolver.table.definitions(from: .api).map { $0.json() }, ifRevision: current.revision)
                    let published = Snapshot(resolver, revision: revision)
                    snapshot.withLock { $0 = published }
                    return result
                }
            } catch is StoreConflict where attempts < RouteRegistry.maxAttempts {
                attempts += 1
                try refresh()
            }
        }
    }

    /// Conflicting writes retried before a write fails.
    static let maxAttempts = 8

    /// Re-reads the API routes when the store's revision differs from the published one (another instance
    /// changed them) and publishes them; answers whether anything was published.
    @discardableResult
    func refresh() throws -> Bool {
        try writes.withLock { _ in
            let revision = try store.revisions()[.routes] ?? 0
            let current = snapshot.withLock { $0 }
            guard revision != current.revision else { return false }
            let trees = try store.loadRouteTrees()
            var resolver = current.resolver
            let stored = try trees.map { (tree) throws(LinkError) in try RouteDefinition(json: tree) }
            _ = try resolver.table.replaceRoutes(from: .api, with: stored)
            let published = Snapshot(resolver, revision: revision)
            snapshot.withLock { $0 = published }
            return true
        }
    }
}
