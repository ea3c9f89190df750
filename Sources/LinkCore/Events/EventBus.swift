import HeapModule
import OrderedCollections
import Synchronization

/// The event bus (API.md §5): event types, subscriptions with bounded queues and cursors, fan-out of emits, and
/// long-poll waiters.
///
/// All state sits behind one `Mutex` with short critical sections; waiters are completed after the lock is
/// released, so a completion may do I/O. Time is passed in (`now`), so tests drive it without sleeping; the
/// server calls ``expire(now:)`` from a timer when ``nextDeadline`` passes.
public final class EventBus: Sendable {
    /// Limits of the bus.
    public struct Limits: Sendable {
        public var queueLimit: Int
        public var maxSubscriptions: Int
        /// Event types registered at once, built-in ones included (each emit tests every type).
        public var maxTypes: Int
        /// Entries in one subscription request.
        public var maxEventsPerSubscription: Int
        public static let ttlRange: ClosedRange<Int> = 1...3600
        public static let defaultTTL = 300

        public init(
            queueLimit: Int = 1000, maxSubscriptions: Int = 10_000, maxTypes: Int = 1000,
            maxEventsPerSubscription: Int = 100
        ) {
            self.queueLimit = queueLimit
            self.maxSubscriptions = maxSubscriptions
            self.maxTypes = maxTypes
            self.maxEventsPerSubscription = maxEventsPerSubscription
        }
    }

    struct Deadline: Comparable {
        let at: ContinuousClock.Instant
        let subscription: String
        let token: UInt64
        static func < (a: Deadline, b: Deadline) -> Bool { a.at < b.at }
        static func == (a: Deadline, b: Deadline) -> Bool { a.at == b.at && a.token == b.token }
    }

    struct State {
        var catalog: EventTypeCatalog
        var subscriptions: [String: Subscription] = [:]
        /// The subscriptions of each event type (by type index), by id: an emit reaches them without looking each
        /// one up by its id.
        var subscribers: [Int: [String: Subscription]] = [:]
        var seq: Int
        /// The first `seq` of an emit committed before it is delivered (``emit(_:time:now:committingFirst:)``) while
        /// it is not delivered yet: an empty queue holds nothing below it (``snapshot(now:below:)``), though `seq`
        /// has passed it.
        var undeliveredFrom: Int?
        /// `seq` may not pass this without a new reservation (see ``EventBus/init(types:limits:lastSeq:reserveSeqBlock:)``).
        var seqLimit: Int
        var nextToken: UInt64 = 0
        var deadlines = Heap<Deadline>()
        var waiting = 0
        var lastSweep: ContinuousClock.Instant?
        /// Raised by every removal of a type: tells a subscription opened before a removal from one opened after.
        var removals = 0

        /// The subscription `id` unless it is unknown or has expired by `now`: the sweep runs once a second, so one
        /// unpolled for its `ttl` may still be here, and is removed instead of answered (API.md §5).
        mutating func live(_ id: String, now: ContinuousClock.Instant) -> Subscription? {
            guard let subscription = subscriptions[id] else { return nil }
            guard subscription.hasExpired(at: now) else { return subscription }
            remove(subscription)
            return nil
        }

        mutating func remove(_ subscription: Subscription) {
            subscriptions[subscription.id] = nil
            for index in subscription.typeIndices { subscribers[index]?[subscription.id] = nil }
        }
    }

    /// How many `seq` values one reservation covers.
    public static let seqBlock = 1024

    public let limits: Limits
    private let state: Mutex<State>
    /// Persists a new `seq` limit above the given one and answers it (see ``init(types:limits:lastSeq:reserveSeqBlock:)``).
    private let reserveSeq: (@Sendable (Int) throws -> Int)?
    /// Serialises reservations, so one emit reserves while the others wait for it.
    private let reserving = Mutex(())
    /// Serialises emits: an emit committed before it is delivered (``emit(_:time:now:committingFirst:)``) holds it
    /// from its `seq` to its delivery, so no later `seq` reaches a queue before it.
    private let emitting = Mutex(())

    /// A bus with the built-in types and then `types`.
    ///
    /// `seq` continues from `lastSeq` (API.md §5: it never restarts). With `reserveSeq`, the bus hands out
    /// `seq` values only up to the last reservation: before passing it, it calls `reserveSeq(limit)` with a new
    /// limit ``seqBlock`` higher, which must persist it durably before returning; a restarted bus is given the
    /// persisted limit as `lastSeq`, so no `seq` handed out before a crash is ever handed out again.
    public convenience init(
        types: [EventType] = [], limits: Limits = Limits(), lastSeq: Int = 0,
        reserveSeq: (@Sendable (Int) throws -> Void)? = nil
    ) {
        var reserving: (@Sendable (Int) throws -> Int)?
        if let reserveSeq {
            reserving = { limit in
                try reserveSeq(limit + EventBus.seqBlock)
                return limit + EventBus.seqBlock
            }
        }
        self.init(types: types, limits: limits, lastSeq: lastSeq, reserving: reserving)
    }

    /// A bus whose `seq` blocks come from a counter that other buses may share (several instances, API.md §12).
    ///
    /// Before passing its limit, the bus calls `reserveSeqBlock(limit)`, which must durably raise the shared
    /// counter to at least `limit` + ``seqBlock`` and answer the new value; the bus then hands out the
    /// ``seqBlock`` values below it. Two buses never hand out the same `seq`, and each bus's `seq` grows strictly.
    public convenience init(
        types: [EventType] = [], limits: Limits = Limits(), lastSeq: Int = 0,
        reserveSeqBlock: @escaping @Sendable (Int) throws -> Int
    ) {
        self.init(types: types, limits: limits, lastSeq: lastSeq, reserving: reserveSeqBlock)
    }

    private init(
        types: [EventType], limits: Limits, lastSeq: Int, reserving: (@Sendable (Int) throws -> Int)?
    ) {
        self.limits = limits
        self.reserveSeq = reserving
        state = Mutex(
            State(
                catalog: EventTypeCatalog(EventType.builtIn + types), seq: lastSeq,
                seqLimit: reserving == nil ? .max : lastSeq))
    }

    // MARK: - Types

    /// The registered event types, in registration order.
    public var types: [EventType] { state.withLock { $0.catalog.types } }

    /// What subscribing with `requests` would register or rename, without changing anything (to persist first).
    public func plannedTypeChanges(_ requests: [EventTypeRequest]) throws(LinkError) -> [EventType] {
        try checkSize(requests)
        let catalog = state.withLock { $0.catalog }
        let resolved = try catalog.resolving(requests)
        try checkTypeCount(resolved.catalog, before: catalog)
        return resolved.changed
    }

    /// Registers the type `request` describes (`path` required), answering it and whether anything changed.
    /// Call with the change already persisted (see ``plannedTypeChanges(_:)``).
    public func register(_ request: EventTypeRequest) throws(LinkError) -> (type: EventType, changed: Bool) {
        guard request.path != nil else { throw LinkError.invalidField("path", expected: "a pattern") }
        return try state.withLock { (state) throws(LinkError) -> (type: EventType, changed: Bool) in
            let (catalog, indices, changed) = try state.catalog.resolving([request])
            try checkTypeCount(catalog, before: state.catalog)
            state.catalog = catalog
            return (catalog.type(at: indices[0])!, !changed.isEmpty)
        }
    }

    /// The type named `name`, or with the shape of `pattern`; `unknown_name` / `no_match` otherwise.
    public func type(named name: String? = nil, pattern: Pattern? = nil) throws(LinkError) -> EventType {
        try state.withLock { (state) throws(LinkError) -> EventType in
            try EventBus.lookUp(state.catalog, name: name, pattern: pattern).type
        }
    }

    /// Removes a type (not a built-in one): no emit matches it any more and its subscriptions stop receiving
    /// it; its name is free again. Call with the removal already persisted. Answers the last `seq` its subscriptions
    /// can have received of it, and the count of removals so far (``open(_:ttl:now:)`` answers it too: a
    /// subscription opened with a smaller one held the type).
    @discardableResult
    public func remove(named name: String? = nil, pattern: Pattern? = nil) throws(LinkError) -> (
        through: Int, removals: Int
    ) {
        try state.withLock { (state) throws(LinkError) -> (through: Int, removals: Int) in
            let (index, _) = try EventBus.lookUp(state.catalog, name: name, pattern: pattern)
            state.catalog = try state.catalog.removing(index)
            for subscription in (state.subscribers.removeValue(forKey: index) ?? [:]).values {
                subscription.forget(type: index)
            }
            state.removals += 1
            return (state.seq, state.removals)
        }
    }

    /// ``remove(named:pattern:)`` with its removal committed first: `commit` is handed the type, the last `seq` its
    /// subscriptions will have of it and the count of removals it makes, while no emit can run (so that `seq` is
    /// exact), and the type is removed only once `commit` returns. When it throws, nothing is removed and its error
    /// is rethrown. Built-in types are `read_only` before anything is committed.
    @discardableResult
    public func remove(
        named name: String? = nil, pattern: Pattern? = nil,
        committingFirst commit: (_ type: EventType, _ through: Int, _ removals: Int) throws -> Void
    ) throws -> (through: Int, removals: Int) {
        try emitting.withLock { _ in
            let (type, through, removals) = try state.withLock {
                (state) throws(LinkError) -> (EventType, Int, Int) in
                let (index, type) = try EventBus.lookUp(state.catalog, name: name, pattern: pattern)
                // Refused now (a built-in type) rather than after the commit.
                _ = try state.catalog.removing(index)
                return (type, state.seq, state.removals + 1)
            }
            try commit(type, through, removals)
            return try remove(pattern: type.pattern)
        }
    }

    /// Resolves subscription entries to their types, registering new patterns and binding new names (for a
    /// subscription kept elsewhere, API.md §12). Call with the change already persisted.
    public func resolveTypes(_ requests: [EventTypeRequest]) throws(LinkError) -> [EventType] {
        guard !requests.isEmpty else {
            throw LinkError(.invalidRequest, "'events' must list at least one event type")
        }
        try checkSize(requests)
        return try state.withLock { (state) throws(LinkError) -> [EventType] in
            let (catalog, indices, _) = try state.catalog.resolving(requests)
            try checkTypeCount(catalog, before: state.catalog)
            state.catalog = catalog
            var seen: Set<Int> = []
            return indices.filter { seen.insert($0).inserted }.compactMap { catalog.type(at: $0) }
        }
    }

    /// The types matching `location`, best first by the precedence of API.md §2, with the parameters each
    /// extracts; `no_match` when none does.
    public func matching(_ location: Location) throws(LinkError) -> [(type: EventType, parameters: PathParameters)] {
        let catalog = state.withLock { $0.catalog }
        let matches = catalog.matches(location.segments).compactMap { match in
            catalog.type(at: match.index).map { (type: $0, parameters: match.parameters) }
        }
        guard !matches.isEmpty else {
            throw LinkError(
                .noMatch, "No event type matches \(location.path)", details: ["location": .string(location.description)]
            )
        }
        return matches
    }

    private static func lookUp(_ catalog: EventTypeCatalog, name: String?, pattern: Pattern?) throws(LinkError) -> (
        index: Int, type: EventType
    ) {
        if let name {
            guard let index = catalog.index(named: name), let type = catalog.type(at: index) else {
                throw LinkError(.unknownName, "No event type is named '\(name)'", details: ["name": .string(name)])
            }
            return (index, type)
        }
        guard let pattern, let index = catalog.index(of: pattern), let type = catalog.type(at: index) else {
            let text = pattern?.description ?? ""
            throw LinkError(.noMatch, "No event type has the pattern \(text)", details: ["pattern": .string(text)])
        }
        return (index, type)
    }

    private func checkSize(_ requests: [EventTypeRequest]) throws(LinkError) {
        guard requests.count <= limits.maxEventsPerSubscription else {
            throw LinkError(
                .invalidRequest, "A subscription lists at most \(limits.maxEventsPerSubscription) event types",
                details: ["field": "events", "limit": .int(limits.maxEventsPerSubscription)])
        }
    }

    /// Refuses a change that would take the types past ``Limits/maxTypes``. Only growth is refused: types loaded
    /// past the limit (a lower setting at a restart, another instance's registrations) leave the existing ones usable.
    private func checkTypeCount(_ catalog: EventTypeCatalog, before: EventTypeCatalog) throws(LinkError) {
        guard catalog.count <= limits.maxTypes || catalog.count <= before.count else { throw typeLimitReached }
    }

    /// What a registration past ``Limits/maxTypes`` answers (a shared store refuses one with it too).
    public var typeLimitReached: LinkError {
        LinkError(
            .invalidRequest, "The event type limit (\(limits.maxTypes)) is reached",
            details: ["limit": .int(limits.maxTypes)])
    }

    // MARK: - Subscriptions

    /// Opens a subscription to the types `requests` name (registering new patterns and names), answering
    /// `(id, cursor)`. `id` is unguessable; `cursor` is the bus's current `seq`.
    public func subscribe(_ requests: [EventTypeRequest], ttl: Duration, now: ContinuousClock.Instant) throws(LinkError)
        -> (id: String, cursor: Int)
    {
        let opened = try open(requests, ttl: ttl, now: now)
        return (opened.id, opened.cursor)
    }

    /// A subscription ``open(_:ttl:now:)`` made.
    public struct Opened: Sendable {
        public let id: String
        public let cursor: Int
        /// The types it holds (what a store keeps of it).
        public let types: [EventType]
        /// The count of type removals before it (see ``remove(named:pattern:)``).
        public let removals: Int
        /// The catalog before and after, when opening it registered or named a type (for ``undo(_:)``).
        let catalogChange: (before: EventTypeCatalog, after: EventTypeCatalog)?
    }

    /// ``subscribe(_:ttl:now:)``, answering what a store keeps of the subscription.
    public func open(_ requests: [EventTypeRequest], ttl: Duration, now: ContinuousClock.Instant) throws(LinkError)
        -> Opened
    {
        // Registering is allowed: there is always an answer.
        try opening(requests, ttl: ttl, now: now, registering: true)!
    }

    /// ``open(_:ttl:now:)`` with the types registered now only: `nil` (nothing changed) when it would register or
    /// name one, as when a type planned as existing was removed since (the caller plans again).
    public func openWithExistingTypes(_ requests: [EventTypeRequest], ttl: Duration, now: ContinuousClock.Instant)
        throws(LinkError) -> Opened?
    {
        try opening(requests, ttl: ttl, now: now, registering: false)
    }

    private func opening(
        _ requests: [EventTypeRequest], ttl: Duration, now: ContinuousClock.Instant, registering: Bool
    ) throws(LinkError) -> Opened? {
        guard !requests.isEmpty else {
            throw LinkError(.invalidRequest, "'events' must list at least one event type")
        }
        try checkSize(requests)
        let id = EventBus.newID()
        return try state.withLock { (state) throws(LinkError) -> Opened? in
            guard state.subscriptions.count < limits.maxSubscriptions else {
                throw LinkError(
                    .tooManySubscriptions, "The subscription limit is reached",
                    details: ["limit": .int(limits.maxSubscriptions)])
            }
            let (catalog, indices, changed) = try state.catalog.resolving(requests)
            guard registering || changed.isEmpty else { return nil }
            try checkTypeCount(catalog, before: state.catalog)
            let before = state.catalog
            state.catalog = catalog
            let typeIndices = Set(indices)
            let subscription = Subscription(
                id: id, typeIndices: typeIndices, ttl: ttl, lastActive: now, cursor: state.seq)
            state.subscriptions[id] = subscription
            for index in typeIndices { state.subscribers[index, default: [:]][id] = subscription }
            return Opened(
                id: id, cursor: state.seq, types: typeIndices.sorted().compactMap { catalog.type(at: $0) },
                removals: state.removals, catalogChange: changed.isEmpty ? nil : (before, catalog))
        }
    }

    /// Takes back a subscription ``open(_:ttl:now:)`` made and nobody was told of (a store could not keep it): it is
    /// closed, and the types it registered or named are taken back, unless the catalog changed since (then `false`:
    /// the caller brings the types back in line with its store).
    public func undo(_ opened: Opened) -> Bool {
        state.withLock { state in
            if let subscription = state.subscriptions[opened.id] { state.remove(subscription) }
            guard let (before, after) = opened.catalogChange else { return true }
            // Another subscription may hold a type it registered (subscribed to it by name since): that stays.
            let added = state.subscribers.keys.filter { before.type(at: $0) == nil }
            guard state.catalog == after, added.allSatisfy({ state.subscribers[$0]?.isEmpty ?? true }) else {
                return false
            }
            state.catalog = before
            for index in added { state.subscribers[index] = nil }
            return true
        }
    }

    /// Closes a subscription; a waiting poll on it answers empty. One that expired by `now` is not found.
    public func cancel(_ id: String, now: ContinuousClock.Instant = .now) throws(LinkError) {
        let released = try state.withLock { (state) throws(LinkError) -> (Subscription.Waiter, PollResult)? in
            guard let subscription = state.live(id, now: now) else { throw EventBus.notFound(id) }
            state.remove(subscription)
            guard let waiter = subscription.waiter else { return nil }
            state.waiting -= 1
            return (waiter, subscription.emptyAnswer())
        }
        if let (waiter, result) = released { waiter.complete(result) }
    }

    /// What a poll with `after` and no wait would answer now, changing nothing: no event or dropped count is
    /// acknowledged, no waiting poll released, the `ttl` not restarted (`HEAD` of a poll, which must be safe).
    public func peek(_ id: String, after: Int?, now: ContinuousClock.Instant = .now) throws(LinkError) -> PollResult {
        try state.withLock { (state) throws(LinkError) -> PollResult in
            guard let subscription = state.live(id, now: now) else { throw EventBus.notFound(id) }
            let copy = subscription.copy()
            if let after { copy.acknowledge(through: after, latest: state.seq) }
            return copy.answer()
        }
    }

    /// The result of ``poll(_:after:wait:now:complete:)``.
    public enum PollOutcome: Sendable, Equatable {
        /// Answer now with this result.
        case ready(PollResult)
        /// `complete` will be called later (by an emit, the deadline, a newer poll, or a cancel).
        case waiting
    }

    /// Long-poll: acknowledges events up to `after`, then answers at once when events are queued (or `wait` is
    /// zero), else registers `complete` to be called within `wait`. A previous waiting poll on the same
    /// subscription is released with an empty answer.
    public func poll(
        _ id: String, after: Int?, wait: Duration, now: ContinuousClock.Instant,
        complete: @escaping @Sendable (PollResult) -> Void
    ) throws(LinkError) -> PollOutcome {
        try poll(id, after: after, wait: wait, now: now, waiter: PollCallback(complete))
    }

    /// ``poll(_:after:wait:now:complete:)`` with the waiter as an object of the caller's (kept, not copied, while
    /// the poll waits).
    public func poll(
        _ id: String, after: Int?, wait: Duration, now: ContinuousClock.Instant, waiter target: any PollWaiter
    ) throws(LinkError) -> PollOutcome {
        let (outcome, released) = try state.withLock {
            (state) throws(LinkError) -> (PollOutcome, (Subscription.Waiter, PollResult)?) in
            guard let subscription = state.live(id, now: now) else { throw EventBus.notFound(id) }
            if let after { subscription.acknowledge(through: after, latest: state.seq) }
            subscription.lastActive = now
            var released: (Subscription.Waiter, PollResult)?
            if let previous = subscription.waiter {
                subscription.waiter = nil
                state.waiting -= 1
                released = (previous, subscription.emptyAnswer())
            }
            if subscription.hasNews || wait <= .zero {
                return (.ready(subscription.answer()), released)
            }
            state.nextToken += 1
            let waiter = Subscription.Waiter(token: state.nextToken, target: target)
            subscription.waiter = waiter
            state.waiting += 1
            state.deadlines.insert(Deadline(at: now + wait, subscription: id, token: waiter.token))
            return (.waiting, released)
        }
        if let (waiter, result) = released { waiter.complete(result) }
        return outcome
    }

    // MARK: - Keeping subscriptions across restarts

    /// What a store keeps of a subscription (``snapshot(now:)``) to bring it back after a restart
    /// (``restore(_:now:)``).
    public struct SubscriptionState: Sendable, Equatable {
        public let id: String
        /// The last `seq` handed to it.
        public let cursor: Int
        /// Its queue holds no event below this `seq`: every one of its events below was acknowledged or dropped.
        public let heldFrom: Int
        /// Dropped events not yet acknowledged (all below `heldFrom`).
        public let missed: Int
        /// How long ago, at the snapshot, its last poll ended; zero while one waits (a waiting poll keeps it alive).
        public let idle: Duration
        public let ttl: Duration
        /// The `seq`s of its queued events below the snapshot's `below`, oldest first.
        public let heldBelow: [Int]
        /// How many events it holds.
        public let queued: Int

        public init(
            id: String, cursor: Int, heldFrom: Int, missed: Int, idle: Duration, ttl: Duration, heldBelow: [Int] = [],
            queued: Int = 0
        ) {
            self.id = id
            self.cursor = cursor
            self.heldFrom = heldFrom
            self.missed = missed
            self.idle = idle
            self.ttl = ttl
            self.heldBelow = heldBelow
            self.queued = queued
        }
    }

    /// Every subscription's state, read at one instant; each lists its queued events below `below` (a store that
    /// keeps only some events below it keeps those, ``SubscriptionState/heldBelow``).
    public func snapshot(now: ContinuousClock.Instant, below: Int = 0) -> [SubscriptionState] {
        state.withLock { state in
            state.subscriptions.values.map { subscription in
                SubscriptionState(
                    id: subscription.id, cursor: subscription.cursor,
                    heldFrom: subscription.oldestQueued ?? state.undeliveredFrom ?? state.seq + 1,
                    missed: subscription.missed,
                    idle: subscription.waiter == nil ? max(.zero, now - subscription.lastActive) : .zero,
                    ttl: subscription.ttl, heldBelow: below > 0 ? subscription.queuedSeqs(below: below) : [],
                    queued: subscription.queue.count)
            }
        }
    }

    /// A subscription to bring back (``restore(_:now:)``).
    public struct RestoredSubscription: Sendable {
        public var id: String
        /// The patterns of the types it holds; one no longer registered is left out.
        public var patterns: [Pattern]
        public var ttl: Duration
        /// How long it had been idle (see ``SubscriptionState/idle``), counted back from the restore.
        public var idle: Duration
        public var cursor: Int
        /// Dropped events it had not acknowledged, all older than `events`.
        public var missed: Int
        /// Its unacknowledged events, oldest first: beyond the queue limit the oldest are dropped and counted.
        public var events: [Event]

        public init(
            id: String, patterns: [Pattern], ttl: Duration, idle: Duration, cursor: Int, missed: Int, events: [Event]
        ) {
            self.id = id
            self.patterns = patterns
            self.ttl = ttl
            self.idle = idle
            self.cursor = cursor
            self.missed = missed
            self.events = events
        }
    }

    /// Brings back subscriptions kept by a store (at start, before any request): each with its queue, its dropped
    /// count and what is left of its `ttl`. One with an id already open is skipped.
    public func restore(_ restored: [RestoredSubscription], now: ContinuousClock.Instant) {
        state.withLock { state in
            for entry in restored where state.subscriptions[entry.id] == nil {
                let indices = Set(entry.patterns.compactMap { state.catalog.index(of: $0) })
                let subscription = Subscription(
                    id: entry.id, typeIndices: indices, ttl: entry.ttl, lastActive: now - entry.idle,
                    cursor: entry.cursor)
                subscription.restore(missed: entry.missed, before: entry.events.first?.seq ?? entry.cursor + 1)
                for event in entry.events { subscription.enqueue(event, limit: limits.queueLimit) }
                state.subscriptions[entry.id] = subscription
                for index in indices { state.subscribers[index, default: [:]][entry.id] = subscription }
            }
        }
    }

    // MARK: - Emitting

    /// Delivers an event at `location` to every subscription with a matching type, each tagged with its
    /// best-matching type; `no_match` when no registered type matches. A poll it answers ends at `now`: its
    /// subscription's `ttl` counts from there, as from any other answer.
    @discardableResult
    public func emit(
        _ location: Location, extra: JSONValue, time: String, now: ContinuousClock.Instant = .now
    ) throws(LinkError) -> EmitResult {
        try emitting.withLock { _ throws(LinkError) in
            try prepare(location, extra: extra, time: time, now: now, deliveringNow: true).result
        }
    }

    /// Emits events that must be committed before anyone receives them (a slot's change and its `slotChanged`
    /// events, written together): each gets its `seq`, then `commit` is handed the results (what will reach which
    /// types) before any event is queued, then they are delivered to the subscriptions that were there at their
    /// `seq` and are still open. When `commit` throws, nothing is delivered (the `seq`s are skipped: gaps are
    /// allowed) and its error is rethrown. Other emits wait meanwhile, so every queue still receives events in
    /// `seq` order.
    public func emit(
        _ events: [(location: Location, extra: JSONValue)], time: String, now: ContinuousClock.Instant = .now,
        committingFirst commit: ([EmitResult]) throws -> Void
    ) throws -> [EmitResult] {
        try emitting.withLock { _ in
            // Delivered, or not made (a failed commit, an event that matches nothing): nothing is in flight.
            defer { state.withLock { $0.undeliveredFrom = nil } }
            var prepared: [PreparedEmit] = []
            for event in events {
                prepared.append(
                    try prepare(event.location, extra: event.extra, time: time, now: now, deliveringNow: false))
            }
            let results = prepared.map(\.result)
            try commit(results)
            var wake: [(Subscription.Waiter, PollResult)] = []
            state.withLock { state in
                state.undeliveredFrom = nil
                for emit in prepared {
                    for (event, ids) in emit.planned {
                        for id in ids {
                            guard let subscription = state.subscriptions[id] else { continue }
                            EventBus.enqueue(
                                event, into: subscription, limit: limits.queueLimit, now: now, &state, &wake)
                        }
                    }
                }
            }
            while let (waiter, answer) = wake.popLast() { waiter.complete(answer) }
            return results
        }
    }

    /// An emit given its `seq`, and, when it is not delivered at once, the ids of the subscriptions each of its
    /// events is for.
    private struct PreparedEmit: Sendable {
        var result: EmitResult
        var planned: [(event: Event, ids: [String])] = []
    }

    /// Gives an emit its `seq` and finds its subscribers; with `deliveringNow`, queues it in each and answers their
    /// waiting polls, else plans the delivery. Called with ``emitting`` held.
    private func prepare(
        _ location: Location, extra: JSONValue, time: String, now: ContinuousClock.Instant, deliveringNow: Bool
    ) throws(LinkError) -> PreparedEmit {
        while true {
            // The polls to answer, moved out of the lock (held here alone, so each is let go as it is answered).
            var wake: [(Subscription.Waiter, PollResult)] = []
            let attempt = try state.withLock { (state) throws(LinkError) -> EmitAttempt in
                let matches = state.catalog.matches(location.segments)
                guard !matches.isEmpty else {
                    throw LinkError(
                        .noMatch, "No event type matches \(location.path)",
                        details: ["location": .string(location.description)])
                }
                guard state.seq < state.seqLimit else { return .reserve(limit: state.seqLimit) }
                state.seq += 1
                // Set with the `seq` itself: a snapshot in between would say an empty queue holds nothing up to it.
                if !deliveringNow && state.undeliveredFrom == nil { state.undeliveredFrom = state.seq }
                // A subscription gets the event once, with its best-matching type: with several types matching,
                // the ids already reached are skipped (with one, each subscriber is reached once anyway).
                var reached: Set<String> = []
                var delivered = 0
                var events: [Event] = []
                var planned: [(event: Event, ids: [String])] = []
                // At most every waiting poll of the matched types wakes (not every poll waiting on the bus).
                if deliveringNow {
                    wake.reserveCapacity(
                        min(state.waiting, matches.reduce(0) { $0 + (state.subscribers[$1.index]?.count ?? 0) }))
                }
                for (index, parameters) in matches {
                    guard let subscribers = state.subscribers[index], let type = state.catalog.type(at: index) else {
                        continue
                    }
                    let event = Event(
                        seq: state.seq, type: type, location: location, parameters: parameters, extra: extra,
                        time: time)
                    let before = delivered
                    var ids: [String] = []
                    for (id, subscription) in subscribers where matches.count == 1 || reached.insert(id).inserted {
                        // One past its `ttl` is gone though the sweep has not removed it yet (as a poll finds).
                        if subscription.hasExpired(at: now) { continue }
                        delivered += 1
                        if deliveringNow {
                            EventBus.enqueue(
                                event, into: subscription, limit: limits.queueLimit, now: now, &state, &wake)
                        } else {
                            ids.append(id)
                        }
                    }
                    if delivered > before {
                        events.append(event)
                        if !deliveringNow { planned.append((event, ids)) }
                    }
                }
                let matched = matches.compactMap { state.catalog.type(at: $0.index)?.label }
                return .emitted(
                    PreparedEmit(
                        result: EmitResult(seq: state.seq, delivered: delivered, matched: matched, reached: events),
                        planned: planned))
            }
            switch attempt {
            case .reserve(let limit):
                try reserve(beyond: limit)
            case .emitted(let prepared):
                // Each waiter is let go as soon as it is answered, so the poll's connection thread, not this one,
                // usually frees the request (one emit answers thousands; the order among them is no contract).
                while let (waiter, answer) = wake.popLast() { waiter.complete(answer) }
                return prepared
            }
        }
    }

    /// Queues `event` in `subscription` and takes its waiting poll, if any, to be answered once the lock is let go.
    @inline(__always)
    private static func enqueue(
        _ event: Event, into subscription: Subscription, limit: Int, now: ContinuousClock.Instant, _ state: inout State,
        _ wake: inout [(Subscription.Waiter, PollResult)]
    ) {
        subscription.enqueue(event, limit: limit)
        if let waiter = subscription.waiter {
            subscription.waiter = nil
            subscription.lastActive = max(subscription.lastActive, now)
            state.waiting -= 1
            wake.append((waiter, subscription.answer()))
        }
    }

    private enum EmitAttempt {
        case reserve(limit: Int)
        case emitted(PreparedEmit)
    }

    /// Persists a new `seq` limit ``seqBlock`` above `limit`, unless another emit already did.
    private func reserve(beyond limit: Int) throws(LinkError) {
        guard let reserveSeq else { return }
        try reserving.withLock { _ throws(LinkError) in
            guard state.withLock({ $0.seqLimit }) == limit else { return }
            let next: Int
            do {
                next = try reserveSeq(limit)
            } catch let error as LinkError {
                throw error
            } catch {
                throw LinkError(.internal, "Could not reserve event sequence numbers")
            }
            state.withLock { state in
                // A shared counter may have moved on: continue from the start of the block reserved.
                state.seq = max(state.seq, next - EventBus.seqBlock)
                state.seqLimit = next
            }
        }
    }

    /// Emits to the location built from the type named `name` with `params` and `query`.
    @discardableResult
    public func emit(
        name: String, params: OrderedDictionary<String, String>, query: [QueryItem], extra: JSONValue, time: String
    ) throws(LinkError) -> EmitResult {
        let pattern = try state.withLock { (state) throws(LinkError) -> Pattern in
            try EventBus.lookUp(state.catalog, name: name, pattern: nil).type.pattern
        }
        let location = try LocationBuilder.location(for: pattern, params: params, query: query)
        return try emit(location, extra: extra, time: time)
    }

    // MARK: - Time

    /// The earliest waiting poll's deadline, if any.
    public var nextDeadline: ContinuousClock.Instant? {
        state.withLock { $0.deadlines.min?.at }
    }

    /// Answers polls whose wait has elapsed (empty) and closes subscriptions unpolled for their `ttl`.
    /// Returns how many polls were answered.
    @discardableResult
    public func expire(now: ContinuousClock.Instant) -> Int {
        let expired = state.withLock { state -> [(Subscription.Waiter, PollResult)] in
            var expired: [(Subscription.Waiter, PollResult)] = []
            while let first = state.deadlines.min, first.at <= now {
                state.deadlines.removeMin()
                guard let subscription = state.subscriptions[first.subscription],
                    let waiter = subscription.waiter, waiter.token == first.token
                else { continue }
                subscription.waiter = nil
                subscription.lastActive = now
                state.waiting -= 1
                expired.append((waiter, subscription.answer()))
            }
            if state.lastSweep.map({ now - $0 >= .seconds(1) }) ?? true {
                state.lastSweep = now
                let stale = state.subscriptions.values.filter { $0.hasExpired(at: now) }
                for subscription in stale { state.remove(subscription) }
            }
            return expired
        }
        for (waiter, result) in expired { waiter.complete(result) }
        return expired.count
    }

    /// Answers every waiting poll with an empty result (at shutdown): each ends at `now`, so its subscription's
    /// `ttl` counts from there, as from any other answer.
    public func releaseAll(now: ContinuousClock.Instant = .now) {
        let waiters = state.withLock { state -> [(Subscription.Waiter, PollResult)] in
            var waiters: [(Subscription.Waiter, PollResult)] = []
            for subscription in state.subscriptions.values {
                guard let waiter = subscription.waiter else { continue }
                subscription.waiter = nil
                subscription.lastActive = max(subscription.lastActive, now)
                waiters.append((waiter, subscription.emptyAnswer()))
            }
            state.waiting = 0
            state.deadlines = Heap()
            return waiters
        }
        for (waiter, result) in waiters { waiter.complete(result) }
    }

    // MARK: - Counts

    public var subscriptionCount: Int { state.withLock { $0.subscriptions.count } }
    /// The last `seq` handed out.
    public var lastSeq: Int { state.withLock { $0.seq } }
    public var waitingCount: Int { state.withLock { $0.waiting } }

    // MARK: - Helpers

    /// `subscription_not_found` for `id` (also answered by a hub that keeps subscriptions elsewhere).
    public static func notFound(_ id: String) -> LinkError {
        LinkError(
            .subscriptionNotFound, "No subscription '\(id)' (unknown or expired)", details: ["id": .string(id)])
    }

    /// 128 random bits from the system's cryptographic generator, as 32 hex digits.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex(generator.next()) + hex(generator.next())
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
