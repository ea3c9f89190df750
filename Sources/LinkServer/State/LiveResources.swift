import LinkCore

/// The live resources: a ``LiveState`` of the ``ResourceRegistry``, whose writes commit each change to the store.
///
/// Readers use the snapshot and never touch the store. A change is published once it is on disk, in revision order.
final class LiveResources: Sendable {
    private let state: LiveState<ResourceRegistry>
    private let store: any Store
    /// `links.hosts`: `http`/`https` locations with another host match no resource.
    let hosts: HostAllowList?

    /// Loads every stored resource.
    init(store: any Store, hosts: HostAllowList?) throws {
        let stored = try LiveResources.load(store)
        let registry = try ResourceRegistry(resources: stored.resources, revision: stored.revision)
        state = LiveState(registry, revision: stored.revision, refreshesBeforeWrites: store.isShared) { current in
            let stored = try LiveResources.load(store)
            guard stored.revision != current.revision else { return nil }
            return .init(
                try ResourceRegistry(resources: stored.resources, revision: stored.revision), revision: stored.revision)
        }
        self.store = store
        self.hosts = hosts
    }

    /// The stored resources, their revision checked to be one use can reach (``StoredCounter``): the next write adds
    /// one to it.
    private static func load(_ store: any Store) throws -> (resources: [Resource], revision: Int) {
        let stored = try store.loadResources()
        _ = try StoredCounter.checked(stored.revision, "resources revision")
        return stored
    }

    /// The current snapshot.
    var snapshot: ResourceRegistry { state.value }

    /// The published snapshot with its serial, for what is kept per snapshot.
    var published: LiveState<ResourceRegistry>.Snapshot { state.snapshot }

    /// Applies `change` to the current snapshot, commits the result (when it is a write) and publishes it.
    ///
    /// Domain errors leave everything as it was; a store failure too (the change is not published).
    /// With a shared store, a change computed from a state another instance has since changed is refused by the
    /// store; the resources are then re-read and `change` runs again (so `If-Match` holds across instances).
    func write(_ change: (ResourceRegistry) throws -> ResourceRegistry.Outcome) throws -> ResourceChange {
        try state.write { current in
            let outcome = try change(current.value)
            guard outcome.change.isWrite else { return .init(unchanged: current.value, result: outcome.change) }
            return .init(outcome.registry, result: outcome.change) { [store] in
                try store.saveResourceChange(outcome.change, revision: outcome.registry.revision)
                return outcome.registry.revision
            }
        }
    }

    /// Re-reads the resources when the store holds another revision (another instance wrote) and publishes them;
    /// answers whether anything was published.
    @discardableResult
    func refresh() throws -> Bool { try state.refresh() }
}
