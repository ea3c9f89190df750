import LinkCore

/// Durable state of the service. Every method that writes returns only after the write is committed, so an
/// acknowledged change survives a crash. Start-up rebuilds the in-memory state from the `load…` methods.
///
/// The embedded SQLite store is the default; the protocol is the seam for a shared server database.
protocol Store: Sendable {
    /// API-registered route trees, in registration order, as their JSON definitions.
    func loadRouteTrees() throws -> [JSONValue]
    /// Replaces every API-registered route tree at once.
    func replaceRouteTrees(_ trees: [JSONValue]) throws

    /// Registered event types with their names, in registration order.
    func loadEventTypes() throws -> [EventType]
    /// Adds event types, or records a name given to an existing one (matched by pattern shape). `before` holds, for
    /// each, the stored type of its shape the change was planned against (`nil`: none); a shared store throws
    /// ``StoreConflict`` when the stored types are no longer those (another instance registered, named or removed one
    /// first), or when one of the names is bound to another pattern there.
    ///
    /// With `limit`, a shared store also refuses a write that would leave more types stored than `limit.stored`
    /// (throwing `limit.error`): each instance checks the limit against the types it followed, and registrations on
    /// several instances at once went past it together (the instances then disagreed on the types for good).
    func saveEventTypes(_ types: [EventType], before: [EventType?], within limit: EventTypeLimit?) throws
    /// Removes an event type (matched by pattern shape).
    func deleteEventType(_ type: EventType) throws
    /// Takes back a type this instance stored for a subscription that was then refused: removed only while it is
    /// stored as `type` and no subscription holds its pattern (with a shared store, another instance may have
    /// subscribed to it meanwhile).
    func withdrawEventType(_ type: EventType) throws

    /// A small durable key/value map for counters and markers.
    func meta(_ key: String) throws -> String?
    func setMeta(_ key: String, _ value: String) throws

    /// Every resource in creation order, and the global resource revision (0 before any write).
    func loadResources() throws -> (resources: [Resource], revision: Int)
    /// Commits one resource change and the new global revision in one transaction.
    func saveResourceChange(_ change: ResourceChange, revision: Int) throws

    /// Every slot's presentation, by slot name.
    func loadSlots() throws -> [String: Presentation]
    /// Sets what a slot shows (`nil` empties it).
    func saveSlot(_ name: String, _ presentation: Presentation?) throws

    /// Adds click counters (API.md §8), summing with what is stored.
    func addClickCounts(_ counts: [ClickCount]) throws
    /// Every click counter of the UTC days `from...to`.
    func loadClickCounts(from: Int64, to: Int64) throws -> [ClickCount]

    /// Counts one click towards a route's `maxClicks` (API.md §7) atomically; `false` (nothing counted) when
    /// `limit` clicks were already counted for `pattern`.
    func countLimitedClick(pattern: String, limit: Int) throws -> Bool
    /// The clicks counted towards `pattern`'s `maxClicks`.
    func limitedClicks(pattern: String) throws -> Int

    /// Keeps a new deferred-link token (API.md §9).
    func saveDeferredToken(_ token: DeferredToken) throws
    /// Claims a token: the first claim records `installID`; a repeat with the same `installID` within
    /// `repeatWindow` milliseconds gets it again; anything else (unknown, expired, claimed) is `nil`.
    func claimDeferredToken(_ token: String, installID: String?, now: Int64, repeatWindow: Int64) throws
        -> DeferredToken?
    /// Deletes tokens expired at `now`; returns how many.
    func purgeDeferredTokens(before now: Int64) throws -> Int
    /// How many tokens the store keeps (claimed ones too, until purged): ``LinksSettings/maxDeferredTokens``.
    func countDeferredTokens() throws -> Int

    /// Closes the store; later calls fail.
    func close() throws

    // MARK: Several instances (API.md §12); the defaults below serve a store only this process writes.

    /// Whether other processes change this store too (then ``StoreFollower`` watches ``revisions()``).
    var isShared: Bool { get }
    /// The revision of each shared table: it grows with every committed change to that table.
    func revisions() throws -> [SharedTable: Int]
    /// ``revisions()`` read by ``StoreFollower``: tried even while the store is known to be out of reach
    /// (``failFast(while:)``), since it is what finds the store again.
    func probeRevisions() throws -> [SharedTable: Int]
    /// Replaces every API route tree when the routes' revision is still `revision`, answering the new revision;
    /// throws ``StoreConflict`` when another instance changed the routes first.
    func replaceRouteTrees(_ trees: [JSONValue], ifRevision revision: Int) throws -> Int
    /// Raises the counter `key` of `meta` to `max(stored, after) + count` in one atomic step and answers it: a
    /// block of numbers no other caller (in any instance) is given.
    func reserveBlock(_ key: String, after: Int, count: Int) throws -> Int
    /// Drops the connections to a shared store and connects afresh (the follower calls it while the store is
    /// unreachable, so reconnection never waits longer than its own backoff).
    func reconnect()
    /// Why the store is out of reach, as the database or the network says it (a call answers only `unavailable`),
    /// for the follower's log line; may take a connection attempt. `nil` for a store that is never out of reach.
    func diagnoseUnreachable() -> String?
    /// Given by ``StoreFollower`` as it starts: whether it finds the store out of reach (`/readyz` 503). While it
    /// does, a shared store answers every call but ``probeRevisions()`` `unavailable` at once rather than after a
    /// connection attempt (a circuit breaker: the follower's poll is the probe).
    func failFast(while knownUnreachable: @escaping @Sendable () -> Bool)
    /// Sets what a slot shows when it still shows `previous` (compared by `id`, `since`, `expires` and `priority`);
    /// throws ``StoreConflict`` when another instance changed the slot first. `events` (the change's `slotChanged`, from
    /// ``EventHub/storedEvent(_:extra:time:)``: only a store that keeps the event log has any) are appended in the
    /// same transaction.
    func saveSlot(
        _ name: String, _ presentation: Presentation?, replacing previous: Presentation?,
        appending events: [StoredEvent]
    ) throws
}

extension Store {
    var isShared: Bool { false }

    func revisions() throws -> [SharedTable: Int] { [:] }

    func probeRevisions() throws -> [SharedTable: Int] { try revisions() }

    func replaceRouteTrees(_ trees: [JSONValue], ifRevision revision: Int) throws -> Int {
        try replaceRouteTrees(trees)
        return revision
    }

    func reconnect() {}

    func diagnoseUnreachable() -> String? { nil }

    func failFast(while knownUnreachable: @escaping @Sendable () -> Bool) {}

    func saveSlot(
        _ name: String, _ presentation: Presentation?, replacing previous: Presentation?,
        appending events: [StoredEvent]
    ) throws {
        precondition(events.isEmpty, "only a store that keeps the event log appends events")
        try saveSlot(name, presentation)
    }

    func reserveBlock(_ key: String, after: Int, count: Int) throws -> Int {
        let limit = max(try StoredCounter.parsed(try meta(key), key), after) + count
        try setMeta(key, String(limit))
        return limit
    }
}

/// A table several instances share through a server store (API.md §12).
enum SharedTable: String, CaseIterable, Sendable {
    case routes
    case resources
    case eventTypes = "event_types"
    case slots
    /// The event log: its revision is the last `seq` committed (API.md §12: allocated under a lock, in commit order).
    case events
    /// Shared subscriptions: raised when one is opened or closed.
    case subscriptions
}

/// The counters a store keeps (the resources' revision, the last event `seq` reserved) grow by one a write, or by a
/// block: past 2^62 (a million a second for 146,000 years) one was edited by hand, and growing it would overflow
/// (a trap). Such a value stops the start, or fails its write, with a message that names it.
enum StoredCounter {
    static let limit = 1 << 62

    static func checked(_ value: Int, _ name: String) throws -> Int {
        guard value <= limit else { throw OutOfRange(name: name, value: String(value)) }
        return value
    }

    /// A counter kept as text (`meta`): none is 0; one that is not a number, or past ``limit``, is refused (read as 0,
    /// the event `seq` would start again below the cursors clients hold).
    static func parsed(_ text: String?, _ name: String) throws -> Int {
        guard let text else { return 0 }
        guard let value = text.decimalValue else { throw OutOfRange(name: name, value: text) }
        return try checked(value, name)
    }

    struct OutOfRange: Error, CustomStringConvertible {
        let name: String
        let value: String
        var description: String {
            "the stored counter '\(name)' is \(value), not a count use can reach (0 to 2^62): the store was edited by hand"
        }
    }
}

/// A conditional write found that another instance changed the data first: reload, then compute again.
struct StoreConflict: Error {
    let table: SharedTable
}

/// The most event types a store keeps (``EventBus/Limits/maxTypes`` less the built-in ones, which are not stored),
/// and what a write past it answers (``EventBus/typeLimitReached``).
struct EventTypeLimit: Sendable {
    let stored: Int
    let error: LinkError
}

extension Store {
    /// ``saveEventTypes(_:before:within:)`` without a limit (a write that puts back what was stored).
    func saveEventTypes(_ types: [EventType], before: [EventType?]) throws {
        try saveEventTypes(types, before: before, within: nil)
    }
}
