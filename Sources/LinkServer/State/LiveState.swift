import LinkCore
import Synchronization

/// The one shape of live state in the server (routes, resources, slots): an immutable value that every request reads, and
/// one path by which it changes.
///
/// - **Read**: ``snapshot`` copies one reference out of a lock held for that copy only; the reader then owns an
///   immutable value that later writes never touch. (A bare atomic load of a class reference cannot be made safe
///   without a reclamation scheme — the writer would free the old snapshot under a reader that has loaded but not
///   yet retained it — and swift-atomics' `ManagedAtomic` strong references pay two double-word compare-and-swaps
///   per load; an uncontended `Mutex` around the retain costs less. See docs/architecture.md, "Live state".)
/// - **Write**: ``write(_:)`` is serialised: it computes the new value from the published one, commits it to the
///   store, and publishes it only once the commit returned. So commit order is publication order, and no reader
///   sees a value that is not durable.
/// - **Follow**: ``refresh()`` publishes what another instance committed (API.md §12), through the `reload`
///   closure given at creation; a write refused by the store as computed from a stale value (``StoreConflict``)
///   refreshes and computes again.
final class LiveState<Value: Sendable>: Sendable {
    /// A published value and its revision: the store's revision it was read or committed at where the store keeps
    /// one (routes, resources), else a count of publications (slots).
    final class Snapshot: Sendable {
        let value: Value
        let revision: Int
        /// Unique among every snapshot this process makes, of any state: what a cache of something derived from a
        /// snapshot compares. (Not the object's address: a freed snapshot's memory is reused by a later one.)
        let serial: UInt64

        init(_ value: Value, revision: Int) {
            self.value = value
            self.revision = revision
            serial = snapshotSerials.add(1, ordering: .relaxed).newValue
        }

        /// Runs `body` with the value lent, not copied (a copy of a struct retains each of its parts).
        func lend<Result, Failure: Error>(_ body: (borrowing Value) throws(Failure) -> Result) throws(Failure) -> Result
        {
            try body(value)
        }
    }

    /// What a write computed: the value to publish, the answer for the caller, and how to make it durable.
    struct Change<Result> {
        var value: Value
        var result: Result
        /// Commits `value` and returns its revision; nil when nothing changed (nothing is published).
        var commit: (() throws -> Int)?
        /// Runs once the change is published (or found to change nothing), still in the write's serial order: the
        /// events and metrics that announce it.
        var announce: (() -> Void)?

        /// A change to commit and publish.
        init(
            _ value: Value, result: Result, commit: @escaping () throws -> Int, announce: (() -> Void)? = nil
        ) {
            self.value = value
            self.result = result
            self.commit = commit
            self.announce = announce
        }

        /// No change: the caller gets `result`, the published value stays.
        init(unchanged value: Value, result: Result, announce: (() -> Void)? = nil) {
            self.value = value
            self.result = result
            self.commit = nil
            self.announce = announce
        }
    }

    /// Writes refused as stale (another instance committed first) that are retried before the write fails.
    static var maxAttempts: Int { 8 }

    private let published: Mutex<Snapshot>
    /// Held for a whole write or refresh: compute, commit, publish.
    private let writes = Mutex(())
    /// The state another instance committed, given the published one, or nil when the store holds that revision.
    private let reload: @Sendable (Snapshot) throws -> Snapshot?
    /// Whether a write first publishes what other instances committed (a shared store): a write decided from a
    /// stale value that commits nothing (a delete of what another instance created a moment ago: "not found")
    /// would otherwise never meet the store's conflict check.
    private let refreshesBeforeWrites: Bool

    init(
        _ value: Value, revision: Int, refreshesBeforeWrites: Bool = false,
        reload: @escaping @Sendable (Snapshot) throws -> Snapshot?
    ) {
        published = Mutex(Snapshot(value, revision: revision))
        self.refreshesBeforeWrites = refreshesBeforeWrites
        self.reload = reload
    }

    /// The published snapshot.
    var snapshot: Snapshot { published.withLock { $0 } }

    /// The published value.
    var value: Value { snapshot.value }

    /// Computes a change from the published snapshot, commits it and publishes it; returns the change's result.
    ///
    /// An error from `compute` or from the commit leaves the published value as it was.
    func write<Result>(_ compute: (Snapshot) throws -> Change<Result>) throws -> Result {
        var attempts = 0
        while true {
            do {
                return try writes.withLock { _ in
                    if refreshesBeforeWrites && attempts == 0, let newer = try reload(snapshot) { publish(newer) }
                    let change = try compute(snapshot)
                    if let commit = change.commit {
                        let revision = try commit()
                        publish(Snapshot(change.value, revision: revision))
                    }
                    change.announce?()
                    return change.result
                }
            } catch is StoreConflict {
                // Other instances kept changing the same data first: 503, for the client to try again (a 500 said
                // the service was broken).
                guard attempts < Self.maxAttempts else { throw LinkError.keptChanging }
                attempts += 1
                try refresh()
            }
        }
    }

    /// Publishes the state another instance committed, if the store holds another revision; answers whether
    /// anything was published.
    @discardableResult
    func refresh() throws -> Bool {
        try writes.withLock { _ in
            guard let newer = try reload(snapshot) else { return false }
            publish(newer)
            return true
        }
    }

    private func publish(_ snapshot: Snapshot) {
        published.withLock { $0 = snapshot }
    }
}

/// The last ``LiveState/Snapshot/serial`` handed out.
private let snapshotSerials = Atomic<UInt64>(0)
