import LinkCore
import Logging
import OrderedCollections
import Synchronization

/// The event bus shared by every instance on one PostgreSQL database (API.md §12).
///
/// Subscriptions (patterns, cursor, acknowledgements, dropped counts, expiry) and the event log live in the
/// database, so a subscription made on A can be polled on B, and `seq` is allocated under a lock inside the emit's
/// transaction (commit order). Only waiting polls live here, as waiters: an emit anywhere raises the `events`
/// revision, announced by `NOTIFY` and read by the store follower at least every 250 ms; the hub then reads the
/// new events' pattern shapes once and answers each waiter they concern from the log. A poll on another
/// instance raises the subscription's generation (announced too), which releases an older waiter here.
final class SharedEventHub: EventHub {
    private struct Waiter {
        let token: UInt64
        let generation: Int
        let shapes: Set<String>
        /// Events up to this `seq` were checked for it.
        var seenSeq: Int
        let deadline: ContinuousClock.Instant
        /// The answer when nothing arrives (or when it is released).
        let empty: PollAnswer
        let target: any PollAnswerWaiter

        func complete(_ answer: PollAnswer) { target.answered(answer) }
    }

    private struct State {
        var waiters: [String: Waiter] = [:]
        var nextToken: UInt64 = 0
        /// Live subscriptions in the database, as last counted.
        var subscriptions = 0
        var lastSweep: ContinuousClock.Instant?
        /// The last `seq` the follower reported.
        var knownSeq = 0
    }

    let types: EventBus
    private let store: PostgresStore
    private let logger: Logger
    private let state = Mutex(State())
    /// Serialises the wake-up checks (the follower and a new waiter may both run one).
    private let checking = Mutex(())
    private let clock: @Sendable () -> Int64
    /// Re-reads the event types from the store (set by the owner of the type writes).
    private let typesRefresher = Mutex<(@Sendable () throws -> Void)?>(nil)
    /// How often expired subscriptions and acknowledged events are removed.
    static let sweepInterval = Duration.seconds(5)

    init(
        types: EventBus, store: PostgresStore, logger: Logger,
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds
    ) throws {
        self.types = types
        self.store = store
        self.logger = logger
        self.clock = clock
        let count = try store.subscriptionCount(now: clock())
        state.withLock { $0.subscriptions = count }
    }

    /// Events kept in the log behind the last `seq` for subscriptions that have not acknowledged them.
    private var retained: Int { max(types.limits.queueLimit * 10, 10_000) }

    /// Sets how the hub re-reads the event types: an emit or a subscription that names a type this instance has
    /// not seen yet (registered on another one less than the follower's tick ago) re-reads them once before it
    /// answers `no_match` or `unknown_name`.
    func refreshTypes(with refresher: @escaping @Sendable () throws -> Void) {
        typesRefresher.withLock { $0 = refresher }
    }

    /// Runs `body`; when it finds no such type, re-reads the types from the store and runs it once more.
    func withCurrentTypes<Value>(_ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let error as LinkError where error.code == .noMatch || error.code == .unknownName {
            guard let refresher = typesRefresher.withLock({ $0 }) else { throw error }
            try refresher()
            return try body()
        }
    }

    /// The store refuses a type removed since the caller planned (``StoreConflict``), `registering` or not.
    func subscribe(_ requests: [EventTypeRequest], ttl: Duration, registering: Bool) throws -> (id: String, cursor: Int)
    {
        let resolved = try withCurrentTypes { try types.resolveTypes(requests) }
        let id = EventBus.newID()
        let cursor = try store.createSubscription(
            id: id, shapes: resolved.map { $0.pattern.shape() },
            stored: resolved.filter { !$0.isBuiltIn }.map { ($0.pattern.shape(), $0.name) }, ttl: ttl.milliseconds,
            now: clock(),
            limit: types.limits.maxSubscriptions)
        state.withLock { $0.subscriptions += 1 }
        return (id, cursor)
    }

    func cancel(_ id: String) throws {
        guard try store.deleteSubscription(id: id, now: clock()) else { throw EventBus.notFound(id) }
        release(id, before: .max)
    }

    func poll(_ id: String, after: Int?, wait: Duration, waiter target: any PollAnswerWaiter) throws -> PollAnswer? {
        guard
            let found = try store.pollSubscription(
                id: id, after: after, now: clock(), wait: max(0, wait.milliseconds),
                queueLimit: types.limits.queueLimit,
                supersedes: true)
        else { throw EventBus.notFound(id) }
        // This poll supersedes any waiting one on the same subscription (here; elsewhere by the notification).
        release(id, before: found.generation)
        if !found.events.isEmpty || found.missed > 0 || wait <= .zero { return try answer(found) }
        let known = state.withLock { state in
            state.nextToken += 1
            let waiter = Waiter(
                token: state.nextToken, generation: found.generation, shapes: Set(found.shapes),
                seenSeq: found.latestSeq, deadline: .now + wait,
                empty: PollAnswer(events: [], cursor: found.cursor, missed: 0), target: target)
            state.waiters[id] = waiter
            return state.knownSeq
        }
        // An event committed between the read and now was announced before this waiter existed: check it.
        if known > found.latestSeq { eventsCommitted(through: known) }
        return nil
    }

    func peek(_ id: String, after: Int?) throws -> PollAnswer {
        guard
            let found = try store.pollSubscription(
                id: id, after: after, now: clock(), wait: 0, queueLimit: types.limits.queueLimit, supersedes: false,
                changing: false)
        else { throw EventBus.notFound(id) }
        return try answer(found)
    }

    func emit(_ location: Location, extra: JSONValue, time: String) throws -> EmitResult {
        // An emit asked for is stored whoever listens: it always gets a `seq`.
        guard let result = try append(location, extra: extra, time: time, onlyIfHeard: false) else {
            throw PostgresStoreError.unexpected("no event seq")
        }
        return result
    }

    /// The database is asked in the statement that would store the event: the subscriptions this instance knows of
    /// are counted again only when the follower hears of one made elsewhere, and a click that comes right after
    /// one's 201 must still reach it (API.md §12: "its 201 means it is stored"); nor is a click stored for
    /// subscriptions to other types.
    func emitIfHeard(_ event: () -> (location: Location, extra: JSONValue, time: String)) throws {
        let (location, extra, time) = event()
        _ = try append(location, extra: extra, time: time, onlyIfHeard: true)
    }

    private func append(_ location: Location, extra: JSONValue, time: String, onlyIfHeard: Bool) throws
        -> EmitResult?
    {
        let (event, labels) = try stored(location, extra: extra, time: time)
        let stored = try store.appendEvent(event, now: clock(), onlyIfHeard: onlyIfHeard)
        return stored.map { EmitResult(seq: $0.seq, delivered: $0.delivered, matched: labels) }
    }

    func storedEvent(_ location: Location, extra: JSONValue, time: String) throws -> StoredEvent? {
        try stored(location, extra: extra, time: time).event
    }

    /// The log keeps the event once per matched type, best first, each as a subscriber receives it (its bytes as
    /// the event wrote them; `seq` is set when it is read back); and the matched types' labels.
    private func stored(_ location: Location, extra: JSONValue, time: String) throws -> (
        event: StoredEvent, labels: [String]
    ) {
        let matches = try withCurrentTypes { try types.matching(location) }
        var body = JSONWriter()
        body.beginArray()
        for match in matches {
            body.encoded(
                Event(
                    seq: 0, type: match.type, location: location, parameters: match.parameters, extra: extra,
                    time: time
                ).encoded)
        }
        body.endArray()
        return (
            StoredEvent(
                shapes: matches.map { $0.type.pattern.shape() }, body: String(decoding: body.finish(), as: UTF8.self)),
            matches.map { $0.type.label }
        )
    }

    func releaseAll() {
        let waiters = state.withLock { state in
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.complete(waiter.empty) }
    }

    var subscriptionCount: Int { state.withLock { $0.subscriptions } }
    var waitingCount: Int { state.withLock { $0.waiters.count } }
    var pollsOnce: Bool { true }

    // MARK: - Wake-ups

    /// The event log reached `latest` (the follower saw the `events` revision move): answers every waiter that a
    /// new event concerns, from the log.
    func eventsCommitted(through latest: Int) {
        checking.withLock { _ in
            let pending = state.withLock { state in
                state.knownSeq = max(state.knownSeq, latest)
                return state.waiters.filter { $0.value.seenSeq < latest }
            }
            guard let from = pending.values.map(\.seenSeq).min() else { return }
            let limit = 10_000
            let news: [(seq: Int, shapes: [String])]
            do {
                news = try store.eventShapes(after: from, through: latest, limit: limit)
            } catch {
                logger.warning("reading new events failed", metadata: ["error": "\(error)"])
                return
            }
            // Past the limit, every waiter is checked against the log.
            let overflow = news.count == limit
            var due: [(String, Waiter)] = []
            state.withLock { state in
                for (id, waiter) in pending {
                    guard var current = state.waiters[id], current.token == waiter.token else { continue }
                    let concerned =
                        overflow
                        || news.contains { $0.seq > waiter.seenSeq && !current.shapes.isDisjoint(with: $0.shapes) }
                    if concerned {
                        state.waiters[id] = nil
                        due.append((id, waiter))
                    } else {
                        current.seenSeq = latest
                        state.waiters[id] = current
                    }
                }
            }
            answerWoken(due, latest: latest)
        }
    }

    /// Answers woken waiters from the log, all with one query (nothing is acknowledged and no other poll is
    /// superseded: the poll that waited did both). The cursor an answer hands out is kept by the next poll, which
    /// acknowledges through it.
    private func answerWoken(_ due: [(String, Waiter)], latest: Int) {
        guard !due.isEmpty else { return }
        let queues: [String: SharedPollState]
        do {
            queues = try store.queues(due.map(\.0), latest: latest, queueLimit: types.limits.queueLimit)
        } catch {
            logger.warning("answering woken polls failed", metadata: ["error": "\(error)"])
            for (_, waiter) in due { waiter.complete(waiter.empty) }
            return
        }
        for (id, waiter) in due {
            guard let queue = queues[id], let body = try? answer(queue) else {
                waiter.complete(waiter.empty)
                continue
            }
            waiter.complete(body)
        }
    }

    /// Another poll on subscription `id` (here or on another instance) has `generation`: a waiter with an older
    /// one answers empty.
    func release(_ id: String, before generation: Int) {
        let released = state.withLock { state -> Waiter? in
            guard let waiter = state.waiters[id], waiter.generation < generation else { return nil }
            state.waiters[id] = nil
            return waiter
        }
        if let released { released.complete(released.empty) }
    }

    /// After a (re)connect of the listening connection: releases waiters whose subscription was polled elsewhere
    /// or closed meanwhile (their notification may have been lost). New events are found by the follower's poll.
    func catchUp() {
        let ids = state.withLock { Array($0.waiters.keys) }
        guard let generations = try? store.subscriptionGenerations(ids) else { return }
        for id in ids { release(id, before: generations[id] ?? .max) }
    }

    /// The count of live subscriptions moved (another instance opened or closed one).
    func refreshCount() throws {
        let count = try store.subscriptionCount(now: clock())
        state.withLock { $0.subscriptions = count }
    }

    // MARK: - Time

    /// Answers the waiters whose wait elapsed (empty), and sweeps the shared log now and then. Answers the next
    /// deadline.
    func expire(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let (expired, sweep) = state.withLock { state -> ([Waiter], Bool) in
            let due = state.waiters.filter { $0.value.deadline <= now }
            for id in due.keys { state.waiters[id] = nil }
            let sweep = state.lastSweep.map { now - $0 >= SharedEventHub.sweepInterval } ?? true
            if sweep { state.lastSweep = now }
            return (Array(due.values), sweep)
        }
        for waiter in expired { waiter.complete(waiter.empty) }
        if sweep {
            do {
                try store.sweepEvents(now: clock(), retain: retained, queueLimit: types.limits.queueLimit)
            } catch {
                logger.warning("event log sweep failed", metadata: ["error": "\(error)"])
            }
        }
        return state.withLock { $0.waiters.values.map(\.deadline).min() }
    }

    // MARK: - Answers

    private func answer(_ found: SharedPollState) throws -> PollAnswer {
        let subscribed = Set(found.shapes)
        var events: [JSONValue] = []
        for stored in found.events {
            // The subscriber's best-matching type: the first of the emit's matches (best first) it subscribed to
            // (a type removed since counts for the events it had queued by then).
            let retired = found.retired.filter { $0.through >= stored.seq }.map(\.shape)
            guard
                let index = stored.shapes.firstIndex(where: { subscribed.contains($0) || retired.contains($0) }),
                case .array(let bodies) = try JSONParser.parse(stored.body), index < bodies.count,
                case .object(var event) = bodies[index]
            else { continue }
            event["seq"] = .int(stored.seq)
            events.append(.object(event))
        }
        return PollAnswer(events: events, cursor: found.cursor, missed: found.missed)
    }
}
