import LinkCore
import OrderedCollections

/// Where subscriptions, queued events and waiting polls live (API.md §5): in this process (``EventBus``, with the
/// embedded store) or in the shared PostgreSQL database (``SharedEventHub``, API.md §12).
///
/// Either way the event types, their names and the matching of a location against them come from one
/// ``EventBus`` (``types``), which the store follower keeps in step with the other instances.
protocol EventHub: Sendable {
    /// The event types and the matcher.
    var types: EventBus { get }
    /// Opens a subscription to the types `requests` name, registering new ones in ``types`` (persist them first).
    /// Without `registering` it uses the types registered now only, and throws ``StoreConflict`` when one is
    /// missing (removed since the caller planned against them: it plans again).
    func subscribe(_ requests: [EventTypeRequest], ttl: Duration, registering: Bool) throws -> (id: String, cursor: Int)
    /// ``subscribe(_:ttl:registering:)`` with the types registered now only, for a caller that can be answered later
    /// without holding its thread (the subscribe endpoint, whose connection is suspended meanwhile).
    func subscribeAnswer(_ requests: [EventTypeRequest], ttl: Duration) throws -> CommittedAnswer<Subscribed>
    /// Closes a subscription; a poll waiting on it (on any instance) answers empty.
    func cancel(_ id: String) throws
    /// ``cancel(_:)`` for a caller that can be answered later without holding its thread (the delete endpoint, whose
    /// connection is suspended meanwhile).
    func cancelAnswer(_ id: String) throws -> CommittedAnswer<Void>
    /// Acknowledges through `after`, then answers at once with the queued events (or when `wait` is zero), else
    /// keeps `waiter`, answers it within `wait`, and answers `nil`.
    func poll(_ id: String, after: Int?, wait: Duration, waiter: any PollAnswerWaiter) throws -> PollAnswer?
    /// What a poll with `after` and no wait would answer now, changing nothing (`HEAD` of a poll).
    func peek(_ id: String, after: Int?) throws -> PollAnswer
    /// Delivers an event at `location` to every subscription with a matching type; returns once it may be told.
    func emit(_ location: Location, extra: JSONValue, time: String) throws -> EmitResult
    /// ``emit(_:extra:time:)`` for a caller that can be answered later without holding its thread (the emit
    /// endpoint, whose connection is suspended meanwhile).
    func emitAnswer(_ location: Location, extra: JSONValue, time: String) throws -> CommittedAnswer<EmitResult>
    /// The location built from the type named `name` with `params` and `query` (an emit by name).
    func location(named name: String, params: OrderedDictionary<String, String>, query: [QueryItem]) throws -> Location
    /// Answers every waiting poll here with an empty result (at shutdown).
    func releaseAll()
    /// Answers the polls whose wait elapsed and expires idle subscriptions; answers the next deadline.
    func expire(now: ContinuousClock.Instant) -> ContinuousClock.Instant?
    /// Runs `body` (which looks types up in ``types``); a hub whose types follow other instances re-reads them once
    /// and runs `body` again when it finds no such type.
    func withCurrentTypes<Value>(_ body: () throws -> Value) throws -> Value
    /// Delivers an event that no one asked to emit (`linkClick`): not built (`event` is not called), and given no
    /// `seq`, when no subscription can receive it.
    func emitIfHeard(_ event: () -> (location: Location, extra: JSONValue, time: String)) throws
    /// The event at `location` as the store's log keeps it, when events live in the store (a change that is told as
    /// an event, a slot's, then stores it in its own transaction); `nil`: they are delivered in this process by
    /// ``emit(_:extra:time:)``. A requirement, so that a call through `any EventHub` reaches the shared hub's.
    func storedEvent(_ location: Location, extra: JSONValue, time: String) throws -> StoredEvent?
    /// Removes `type` (found by name or pattern) from ``types``, its removal committed: `delete` deletes its row
    /// from the store first, unless the hub commits the row's deletion with the subscriptions' retirement of it in
    /// one transaction (the embedded store's journal: a removal answered 204 is then whole after any crash, and one
    /// whose commit fails is not made).
    func removeType(_ type: EventType, deleting delete: () throws -> Void) throws
    /// Whether a slot's change is committed here, with the events it is told as (``commitSlot(_:_:told:time:)``):
    /// the embedded store's journal writes both in one transaction. Otherwise the slot board writes the change (with
    /// ``storedEvent(_:extra:time:)``'s events when there are any, or emits them after it).
    var commitsSlotChanges: Bool { get }
    /// Emits a slot's change as `events` and commits the change with them, both or neither; only when
    /// ``commitsSlotChanges``. Throws why the change was not committed.
    func commitSlot(
        _ name: String, _ presentation: Presentation?, told events: [(location: Location, extra: JSONValue)],
        time: String
    ) throws
    /// Open subscriptions (those this instance knows of).
    var subscriptionCount: Int { get }
    /// Polls waiting in this process.
    var waitingCount: Int { get }
    /// Whether a poll costs a round trip to a store: then it is made once, with its wait, rather than first
    /// without one to answer at once (the connection is suspended anyway while the store answers).
    var pollsOnce: Bool { get }
}

/// What a write answers: its result now, or once the embedded store committed it (a 2xx survives `kill -9`).
enum CommittedAnswer<Value: Sendable>: Sendable {
    case now(Value)
    /// The change is made in memory and being committed: `whenCommitted` calls its argument once, on the thread that
    /// committed it, with the result, or with why the commit failed.
    case afterCommit(
        _ whenCommitted: @Sendable (_ answer: @escaping @Sendable (Result<Value, any Error>) -> Void) -> Void)
}

extension CommittedAnswer {
    /// `value`, answered once `commit` has committed it, or with why it was not: `commit` queues the change with the
    /// callback the journal calls once, with the failure or `nil` (``SubscriptionJournal/emitted(_:then:)`` and
    /// its like).
    static func committing(
        _ value: Value, _ commit: @escaping @Sendable (_ done: @escaping @Sendable ((any Error)?) -> Void) -> Void
    ) -> Self {
        .afterCommit { answer in commit { failure in answer(failure.map { .failure($0) } ?? .success(value)) } }
    }
}

/// A subscription opened: its id and its first cursor.
struct Subscribed: Sendable {
    let id: String
    let cursor: Int
}

/// An event as a shared store keeps it in its log (``SharedEventHub``): the shapes of the types it matched, best
/// first, and its bytes per type (its `seq` is set when it is read back). A change that must be told as an event
/// stores it in its own transaction, so the two commit together and in one order (API.md §11, §12).
struct StoredEvent: Sendable {
    var shapes: [String]
    var body: String
}

extension EventHub {
    func withCurrentTypes<Value>(_ body: () throws -> Value) throws -> Value { try body() }

    /// ``subscribe(_:ttl:registering:)``, registering what it needs.
    func subscribe(_ requests: [EventTypeRequest], ttl: Duration) throws -> (id: String, cursor: Int) {
        try subscribe(requests, ttl: ttl, registering: true)
    }

    func storedEvent(_ location: Location, extra: JSONValue, time: String) throws -> StoredEvent? { nil }

    var commitsSlotChanges: Bool { false }

    func removeType(_ type: EventType, deleting delete: () throws -> Void) throws {
        try delete()
        _ = try types.remove(pattern: type.pattern)
    }

    func commitSlot(
        _ name: String, _ presentation: Presentation?, told events: [(location: Location, extra: JSONValue)],
        time: String
    ) throws {
        throw LinkError(.internal, "This event hub does not commit slot changes")
    }

    func emitAnswer(_ location: Location, extra: JSONValue, time: String) throws -> CommittedAnswer<EmitResult> {
        .now(try emit(location, extra: extra, time: time))
    }

    func subscribeAnswer(_ requests: [EventTypeRequest], ttl: Duration) throws -> CommittedAnswer<Subscribed> {
        let (id, cursor) = try subscribe(requests, ttl: ttl, registering: false)
        return .now(Subscribed(id: id, cursor: cursor))
    }

    func cancelAnswer(_ id: String) throws -> CommittedAnswer<Void> {
        .now(try cancel(id))
    }

    func location(named name: String, params: OrderedDictionary<String, String>, query: [QueryItem]) throws -> Location
    {
        let pattern = try withCurrentTypes { try types.type(named: name).pattern }
        return try LocationBuilder.location(for: pattern, params: params, query: query)
    }
}

/// A poll's answer as a hub has it: the embedded bus's result (whose events carry their bytes, written once at the
/// emit), or the shared hub's value read back from its log. It is written when the response is built, on the
/// poll's own connection thread (see ``PendingResponse/poll(_:)``).
struct PollAnswer: Sendable {
    enum Content: Sendable {
        case result(PollResult)
        case value(JSONValue)
    }

    let content: Content
    /// Whether it carries events or a dropped count (a poll that finds either answers at once).
    let hasNews: Bool

    /// The answer of the embedded bus.
    init(_ result: PollResult) {
        content = .result(result)
        hasNews = result.hasNews
    }

    /// An answer of events read back as values (the shared hub's log).
    init(events: [JSONValue], cursor: Int, missed: Int) {
        content = .value(["events": .array(events), "cursor": .int(cursor), "missed": .int(missed)])
        hasNews = !events.isEmpty || missed > 0
    }
}

/// Whoever waits for a long-poll's answer (a hub's answer; the embedded bus's result becomes one): the suspended
/// request itself (``ConnectionState``).
protocol PollAnswerWaiter: PollWaiter {
    /// Called exactly once, from whichever thread answered the poll.
    func answered(_ answer: PollAnswer)
}

extension PollAnswerWaiter {
    func pollAnswered(_ result: PollResult) { answered(PollAnswer(result)) }
}

/// The waiter of a poll that is answered at once (`wait` zero): never kept, never called.
final class UnusedPollWaiter: PollAnswerWaiter {
    static let shared = UnusedPollWaiter()
    func answered(_ answer: PollAnswer) {}
}

/// The embedded hub: everything in this process's ``EventBus``, kept in the embedded store by `journal` (without
/// one, subscriptions end with the process).
struct LocalEventHub: EventHub {
    let types: EventBus
    var journal: SubscriptionJournal?

    func subscribe(_ requests: [EventTypeRequest], ttl: Duration, registering: Bool) throws -> (id: String, cursor: Int)
    {
        let opened = try open(requests, ttl: ttl, registering: registering)
        if let journal {
            do {
                try journal.opened(
                    id: opened.id, types: opened.types, ttl: ttl, cursor: opened.cursor, removals: opened.removals)
            } catch {
                // Nobody was told of it: the bus takes it back with the types it registered or named (unless another
                // subscription holds one by now: that type then stays on the bus, and `LiveEventTypes` keeps it in
                // the store too).
                _ = types.undo(opened)
                throw error
            }
        }
        return (opened.id, opened.cursor)
    }

    func subscribeAnswer(_ requests: [EventTypeRequest], ttl: Duration) throws -> CommittedAnswer<Subscribed> {
        let opened = try open(requests, ttl: ttl, registering: false)
        let subscribed = Subscribed(id: opened.id, cursor: opened.cursor)
        guard let journal else { return .now(subscribed) }
        return .committing(subscribed) { [types] done in
            journal.opened(
                id: opened.id, types: opened.types, ttl: ttl, cursor: opened.cursor, removals: opened.removals
            ) { failure in
                // As ``subscribe(_:ttl:registering:)``: nobody was told of it, and it is taken back before the answer.
                if failure != nil { _ = types.undo(opened) }
                done(failure)
            }
        }
    }

    /// Opens a subscription on the bus; without `registering`, with the types registered now only.
    private func open(_ requests: [EventTypeRequest], ttl: Duration, registering: Bool) throws -> EventBus.Opened {
        if registering { return try types.open(requests, ttl: ttl, now: .now) }
        // A type planned as existing was removed since: registering it here would skip the write's checks (the
        // admin token, the store).
        guard let existing = try types.openWithExistingTypes(requests, ttl: ttl, now: .now) else {
            throw StoreConflict(table: .eventTypes)
        }
        return existing
    }

    func cancel(_ id: String) throws {
        try types.cancel(id)
        try journal?.closed(id: id)
    }

    func cancelAnswer(_ id: String) throws -> CommittedAnswer<Void> {
        try types.cancel(id)
        guard let journal else { return .now(()) }
        // Closed on the bus (a waiting poll answered); the 204 waits for the row's removal to be committed.
        return .committing(()) { journal.closed(id: id, then: $0) }
    }

    var commitsSlotChanges: Bool { journal != nil }

    func removeType(_ type: EventType, deleting delete: () throws -> Void) throws {
        guard let journal else {
            try delete()
            _ = try types.remove(pattern: type.pattern)
            return
        }
        try types.remove(pattern: type.pattern) { removed, through, removals in
            try journal.removingType(removed, through: through, removals: removals)
        }
    }

    func commitSlot(
        _ name: String, _ presentation: Presentation?, told events: [(location: Location, extra: JSONValue)],
        time: String
    ) throws {
        guard let journal else { throw LinkError(.internal, "No journal commits slot changes") }
        // The slot's row and its events' are written in one transaction (a crash keeps both or neither), and the
        // events are delivered only once it is committed: a change refused (503, a full disk) tells no one, nor does
        // an expiry tried again every second until the disk takes it.
        _ = try types.emit(events, time: time) { results in
            try journal.changedSlot(name, to: presentation, told: results)
        }
    }

    func poll(_ id: String, after: Int?, wait: Duration, waiter: any PollAnswerWaiter) throws -> PollAnswer? {
        switch try types.poll(id, after: after, wait: wait, now: .now, waiter: waiter) {
        case .ready(let result): PollAnswer(result)
        case .waiting: nil
        }
    }

    func peek(_ id: String, after: Int?) throws -> PollAnswer {
        PollAnswer(try types.peek(id, after: after))
    }

    func emit(_ location: Location, extra: JSONValue, time: String) throws -> EmitResult {
        let result = try types.emit(location, extra: extra, time: time)
        try journal?.emitted(result, waiting: true)
        return result
    }

    func emitAnswer(_ location: Location, extra: JSONValue, time: String) throws -> CommittedAnswer<EmitResult> {
        let result = try types.emit(location, extra: extra, time: time)
        // Nothing to commit when no subscriber heard it.
        guard let journal, !result.reached.isEmpty else { return .now(result) }
        // Subscribers already have the event; the answer waits for its commit. The commit is queued when the
        // answer's taker is known, so it is never told before it listens.
        return .committing(result) { journal.emitted(result, then: $0) }
    }

    func releaseAll() { types.releaseAll() }

    func expire(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        types.expire(now: now)
        return types.nextDeadline
    }
    func emitIfHeard(_ event: () -> (location: Location, extra: JSONValue, time: String)) throws {
        guard types.subscriptionCount > 0 else { return }
        let (location, extra, time) = event()
        let result = try types.emit(location, extra: extra, time: time)
        try journal?.emitted(result, waiting: false)
    }

    var subscriptionCount: Int { types.subscriptionCount }
    var waitingCount: Int { types.waitingCount }
    var pollsOnce: Bool { false }
}
