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
        snapshot = Mutex(Snapshot(Resolver(table: table, hosts: hosts, redirectLimit: redirectLimit)))
    }

    private static func describe(_ details: JSONObject) -> String {
        details.isEmpty ? "" : " " + JSONValue.object(details).encodedString()
    }

    /// An immutable published resolver.
    final class Snapshot: Sendable {
        let resolver: Resolver
        init(_ resolver: Resolver) { self.resolver = resolver }
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

    var count: Int { resolver.table.count }

    /// Applies `change` to a copy of the table, commits the API routes, then publishes the new table.
    func write<T>(_ change: (inout RouteTable) throws(LinkError) -> T) throws -> T {
        try writes.withLock { _ in
            var resolver = self.resolver
            let result = try change(&resolver.table)
            for check in checks.withLock({ $0 }) { try check(resolver.table) }
            try store.replaceRouteTrees(resolver.table.definitions(from: .api).map { $0.json() })
            let published = Snapshot(resolver)
            snapshot.withLock { $0 = published }
            return result
        }
    }
}
