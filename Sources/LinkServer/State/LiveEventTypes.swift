import LinkCore
import Synchronization

/// The live event types (API.md §5), and the one path by which they change: plan the change against the published
/// types, commit it to the store, then publish it on the bus.
///
/// Unlike routes and resources, the published catalog lives in the ``EventBus``: subscriptions and emits are matched
/// against it under the bus's own lock, together with the queues, so it cannot be a separate ``LiveState``. This
/// holder keeps the rest of the shape: writes are serialised (so store order is publication order), nothing is
/// published before it is durable, and ``refresh()`` follows what another instance committed.
final class LiveEventTypes: Sendable {
    let hub: any EventHub
    private let store: any Store
    /// Whether other instances write the types too (a shared store, API.md §12): each write is then planned against
    /// the stored types, not against what this instance has followed so far (a type removed elsewhere a moment ago
    /// was found here and its registration answered "unchanged" without storing it).
    private let shared: Bool
    /// Held for a whole write or refresh: plan, commit, publish.
    private let writes = Mutex(())

    init(hub: any EventHub, store: any Store, shared: Bool = false) {
        self.hub = hub
        self.store = store
        self.shared = shared
    }

    /// The event types and the matcher.
    var bus: EventBus { hub.types }

    /// The types a subscription would register or name, planned against the current types (another instance's
    /// registration of a moment ago included); empty when it uses existing types only.
    private func plannedChanges(_ requests: [EventTypeRequest]) throws -> [EventType] {
        // With a shared store a type named by its pattern may have been removed elsewhere a moment ago: planned
        // against the followed copy, its registration (and the admin token it needs) would be missed.
        if shared, requests.contains(where: { $0.path != nil }) { try refresh() }
        return try hub.withCurrentTypes { try bus.plannedTypeChanges(requests) }
    }

    /// Subscribes to the types `requests` name, registering and naming what they need first (`authorizeWrite` is
    /// asked then: a write, API.md §5). A subscription to a type another instance removed a moment ago is planned
    /// again against the types as they are now (the store refuses it, ``StoreConflict``: it would otherwise hold the
    /// removed type's pattern and receive it once registered again).
    func subscribe(
        _ requests: [EventTypeRequest], ttl: Duration, authorizeWrite: () throws -> Void
    ) throws -> CommittedAnswer<Subscribed> {
        for _ in 0...LiveEventTypes.maxAttempts {
            guard try plannedChanges(requests).isEmpty else {
                // A write: planned again inside as often as it needs, not once more out here for each of those.
                try authorizeWrite()
                let (id, cursor) = try subscribeRegistering(requests, ttl: ttl)
                return .now(Subscribed(id: id, cursor: cursor))
            }
            do {
                // Planned as using existing types only: one removed since is planned again (as a write). Such a
                // subscription may be answered once its row is committed, its connection suspended meanwhile.
                return try hub.subscribeAnswer(requests, ttl: ttl)
            } catch is StoreConflict {
                try refresh()
            }
        }
        throw LinkError.keptChanging
    }

    /// Registers and names what `requests` need, then subscribes to them. A subscription refused after the types
    /// were stored (too many subscriptions, the shared store lost) registers nothing: the stored types go back to the
    /// ones the bus still publishes, or the next start would bring the refused request's types to light.
    private func subscribeRegistering(_ requests: [EventTypeRequest], ttl: Duration) throws -> (id: String, cursor: Int)
    {
        try writingPlanned {
            let planned = try bus.plannedTypeChanges(requests)
            let published = planned.map { try? bus.type(pattern: $0.pattern) }
            try store.saveEventTypes(planned, before: published, within: storedLimit)
            do {
                // With `writes` held: the hub's subscribe would ask `refresh()` (which takes `writes`) only for an
                // entry it cannot resolve, and every entry was planned on this bus under this lock just above.
                return try hub.subscribe(requests, ttl: ttl)
            } catch {
                // Put back only what is still as this request left it: another instance may have subscribed to a
                // type registered here meanwhile (a shared store keeps such a type). The embedded bus keeps what
                // another subscription holds by now (``EventBus/undo(_:)``): so does the store.
                for (type, before) in zip(planned, published) {
                    if !shared, (try? bus.type(pattern: type.pattern)) == type { continue }
                    if let before {
                        try? store.saveEventTypes([before], before: [type])
                    } else {
                        try? store.withdrawEventType(type)
                    }
                }
                // The shared hub resolves the types on the bus before the store refuses the subscription: the bus
                // then follows the store put back (a name bound by the refused request is let go). The embedded bus
                // refuses first and changes nothing, or takes back what it changed when its journal cannot keep
                // the subscription (``EventBus/undo(_:)``).
                if shared { try? follow() }
                throw error
            }
        }
    }

    /// Registers a type or names one; `changed` is false when it existed as given.
    func register(_ entry: EventTypeRequest) throws -> (type: EventType, changed: Bool) {
        try writingPlanned {
            let planned = try bus.plannedTypeChanges([entry])
            try store.saveEventTypes(
                planned, before: planned.map { try? bus.type(pattern: $0.pattern) }, within: storedLimit)
            return try bus.register(entry)
        }
    }

    /// Runs a write planned against the types followed here, with `writes` held: with a shared store, it follows the
    /// stored types first, and again when the store finds them changed since (``StoreConflict``: another instance
    /// registered, named or removed one a moment ago), then plans anew, as two requests to one instance would be
    /// answered one after the other.
    private func writingPlanned<Value>(_ write: () throws -> Value) throws -> Value {
        try writes.withLock { _ in
            for _ in 0...LiveEventTypes.maxAttempts {
                if shared { try follow() }
                do {
                    return try write()
                } catch is StoreConflict {
                    continue
                }
            }
            throw LinkError.keptChanging
        }
    }

    /// With a shared store, the most types it may keep (the bus's limit less its built-in types, which are not
    /// stored): another instance may have registered types since this one planned against what it followed.
    private var storedLimit: EventTypeLimit? {
        guard shared else { return nil }
        return EventTypeLimit(
            stored: bus.limits.maxTypes - bus.types.count { $0.isBuiltIn }, error: bus.typeLimitReached)
    }

    /// How many times a write planned on types another instance changed meanwhile is planned again.
    static let maxAttempts = 8

    /// Removes a type by name or pattern; built-in types are `read_only`.
    func remove(name: String?, pattern: Pattern?) throws {
        // A type another instance registered a moment ago is known here before it is removed.
        _ = try hub.withCurrentTypes { try bus.type(named: name, pattern: pattern) }
        try writes.withLock { _ in
            if shared { try follow() }
            let type = try bus.type(named: name, pattern: pattern)
            // A built-in type (not stored) is refused by the bus, `read_only`.
            try hub.removeType(type) { if !type.isBuiltIn { try store.deleteEventType(type) } }
        }
    }

    /// Brings the bus's event types in line with the store, after another instance registered, named or removed
    /// one (API.md §12). A type this instance cannot take (its name is bound here to another pattern) is skipped.
    func refresh() throws {
        try writes.withLock { _ in try follow() }
    }

    /// ``refresh()``'s work, with `writes` held.
    private func follow() throws {
        let stored = try store.loadEventTypes()
        let shapes = Set(stored.map { $0.pattern.shape() })
        for type in bus.types where !type.isBuiltIn && !shapes.contains(type.pattern.shape()) {
            _ = try? bus.remove(pattern: type.pattern)
        }
        let names = Dictionary(
            bus.types.map { ($0.pattern.shape(), $0.name) }, uniquingKeysWith: { first, _ in first })
        for type in stored where names[type.pattern.shape()] != .some(type.name) {
            // A name bound here and no longer stored (a refused subscription's, rolled back) is let go: naming
            // cannot unbind it, so the type is registered again as stored.
            if case .some(.some) = names[type.pattern.shape()] { _ = try? bus.remove(pattern: type.pattern) }
            _ = try? bus.register(EventTypeRequest(path: type.pattern.description, name: type.name))
        }
    }
}
