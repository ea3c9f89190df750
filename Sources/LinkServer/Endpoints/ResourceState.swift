import LinkCore
import Synchronization

/// The live resources: the current ``ResourceRegistry`` snapshot, and the one path by which it changes.
///
/// Readers copy the snapshot (one reference, under a lock held for that copy only) and never touch the store.
/// Writers are serialised by a second lock that also covers the store commit, so revision order is commit order
/// and a change is published to readers only once it is on disk.
final class ResourceState: Sendable {
    private let current: Mutex<ResourceRegistry>
    /// Held for a whole write: compute the change, commit it, publish it.
    private let writer = Mutex<Void>(())
    private let store: any Store
    /// `links.hosts`: `http`/`https` locations with another host match no resource.
    let hosts: HostAllowList?

    /// Loads every stored resource.
    init(store: any Store, hosts: HostAllowList?) throws {
        let stored = try store.loadResources()
        current = Mutex(try ResourceRegistry(resources: stored.resources, revision: stored.revision))
        self.store = store
        self.hosts = hosts
    }

    /// The current snapshot.
    var snapshot: ResourceRegistry { current.withLock { $0 } }

    /// Applies `change` to the current snapshot, commits the result (when it is a write) and publishes it.
    ///
    /// Domain errors leave everything as it was; a store failure too (the change is not published).
    /// With a shared store, a change computed from a state another instance has since changed is refused by the
    /// store; the resources are then re-read and `change` runs again (so `If-Match` holds across instances).
    func write(_ change: (ResourceRegistry) throws -> ResourceRegistry.Outcome) throws -> ResourceChange {
        var attempts = 0
        while true {
            do {
                return try writer.withLock { _ in
                    let outcome = try change(snapshot)
                    if outcome.change.isWrite {
                        try store.saveResourceChange(outcome.change, revision: outcome.registry.revision)
                        current.withLock { $0 = outcome.registry }
                    }
                    return outcome.change
                }
            } catch is StoreConflict where attempts < RouteRegistry.maxAttempts {
                attempts += 1
                try refresh()
            }
        }
    }

    /// Re-reads the resources when the store holds another revision (another instance wrote) and publishes them;
    /// answers whether anything was published.
    @discardableResult
    func refresh() throws -> Bool {
        try writer.withLock { _ in
            let stored = try store.loadResources()
            guard stored.revision != snapshot.revision else { return false }
            let registry = try ResourceRegistry(resources: stored.resources, revision: stored.revision)
            current.withLock { $0 = registry }
            return true
        }
    }
}
