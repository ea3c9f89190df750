import Foundation
import LinkCore
import Logging
import Synchronization

/// Keeps the embedded bus's subscriptions in the SQLite store, so that they, their queues and their dropped counts
/// survive a restart or a crash (API.md §5: events stay queued until a poll acknowledges them; a 2xx survives
/// `kill -9`).
///
/// What a client was told is written before it is told, group-committed (the changes that arrive while one commit
/// runs are written together by the next, sharing its `fsync`):
/// - a subscription's 201 and 204 follow the commit of its row;
/// - an emit's 200 follows the commit of the event in the log (``emitted(_:waiting:)``).
///
/// What a client has not been told is written behind, by ``sync(now:)`` about once a second: acknowledgements,
/// cursors, dropped counts and idle times, the removal of expired subscriptions and of the events no subscription
/// holds any more. A crash loses at most the last second of those: an acknowledgement lost delivers its events
/// again (at-least-once, as §5 allows), a dropped count can only come out larger.
///
/// After a restart a subscription's queue is the logged events from its `heldFrom` on that reach its types
/// (``restore(now:)``).
final class SubscriptionJournal: Sendable {
    /// A change waiting for the next commit, with its ticket.
    private struct Pending {
        enum Change {
            /// With the count of type removals before it was opened (``EventBus/open(_:ttl:now:)``).
            case opened(KeptSubscription, removals: Int)
            case closed(String)
            case events([KeptEvent])
            case retired(Retirement)
            /// A slot's change with the events it was told as: written together, never retried (it was refused).
            case slot(name: String, Presentation?, events: [KeptEvent])
        }

        var ticket: UInt64
        var change: Change
        /// Called once the change is committed, or with why it was not (a request answered without holding its
        /// thread: ``emitted(_:then:)``, ``opened(id:types:ttl:cursor:removals:then:)``, ``closed(id:then:)``).
        var done: (@Sendable ((any Error)?) -> Void)? = nil
    }

    /// A type removed from the bus: the last `seq` its subscriptions can have of it, and the count of removals then.
    struct Retirement: Sendable {
        var shape: String
        var through: Int
        var removals: Int
        /// Whether the type's own row goes in the same transaction (a removal through the API, which is answered
        /// once both are committed).
        var deletesType = false
    }

    private struct State {
        var pending: [Pending] = []
        var nextTicket: UInt64 = 0
        /// Every ticket up to this one has been written or has failed.
        var settled: UInt64 = 0
        /// The tickets of the last failed writes, with the error their requests are told.
        var failures: [(tickets: ClosedRange<UInt64>, error: any Error)] = []
        /// Subscriptions stored, with their state as last written.
        var written: [String: KeptSubscriptionState] = [:]
        /// The log holds no event below this one.
        var cut = 0
        /// The last thinning of the log written (``Thinning``).
        var thinned: Thinning?
        /// Whether a caller is writing a batch (group commit) or a sync.
        var writing = false
        /// Whether changes wait for the committing thread (``commitLater(_:then:)``).
        var commitQueued = false
        /// Whether the committing thread runs (it ends when idle for a while; the next such change starts one).
        var committerRunning = false
        /// Set by ``finish()``: nothing is written after it (the store closes).
        var finished = false
        /// The latest type removals: a subscription opened before one, and queued for its commit after it, holds the
        /// removed type only through its `seq`.
        var retirements: [Retirement] = []

        /// Queues `change` with its ticket, answered; a subscription's row and a type's retirement are ordered
        /// against each other here (see ``retirements``).
        mutating func enqueue(
            _ change: Pending.Change, done: (@Sendable ((any Error)?) -> Void)?
        ) -> UInt64 {
            var change = change
            switch change {
            case .opened(var subscription, let removals):
                // Opened before a removal whose retirement is already queued or written: it held the type until then.
                for retirement in retirements where retirement.removals > removals {
                    SubscriptionJournal.retire(retirement, in: &subscription)
                }
                change = .opened(subscription, removals: removals)
            case .retired(let retirement):
                // The subscriptions opened before it and still queued hold the type only until then.
                for index in pending.indices {
                    guard case .opened(var subscription, let removals) = pending[index].change,
                        removals < retirement.removals
                    else { continue }
                    SubscriptionJournal.retire(retirement, in: &subscription)
                    pending[index].change = .opened(subscription, removals: removals)
                }
                retirements.append(retirement)
                if retirements.count > SubscriptionJournal.remembered { retirements.removeFirst() }
            case .closed, .events, .slot:
                break
            }
            nextTicket += 1
            pending.append(Pending(ticket: nextTicket, change: change, done: done))
            return nextTicket
        }
    }

    /// Failed batches remembered for their waiters, and removals for the subscriptions opened before them.
    private static let remembered = 4096

    private let store: SQLiteStore
    private let bus: EventBus
    private let logger: Logger
    private let state = Mutex(State())
    /// Where callers wait for the writer (group commit, ``asWriter(until:_:)``).
    private let writers = NSCondition()
    /// Where the committing thread waits for changes (``commitLater(_:then:)``).
    private let commits = NSCondition()
    private let clock: @Sendable () -> Int64
    /// How long the committing thread waits for changes before it ends.
    private let committerIdle: TimeInterval
    /// How many `seq`s behind the last one the log keeps whole; older events stay only while a subscription holds
    /// them.
    let retained: Int

    init(
        store: SQLiteStore, bus: EventBus, logger: Logger,
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds, committerIdle: Duration = .seconds(5)
    ) {
        self.store = store
        self.bus = bus
        self.logger = logger
        self.clock = clock
        self.committerIdle = TimeInterval(committerIdle.milliseconds) / 1000
        retained = max(bus.limits.queueLimit * 10, 10_000)
    }

    // MARK: - Start

    /// Brings back the stored subscriptions into the bus (at start, before any request); those idle for their `ttl`
    /// are removed. Answers how many came back.
    @discardableResult
    func restore(now: ContinuousClock.Instant = .now) throws -> Int {
        let (kept, logged) = try store.loadSubscriptions()
        let wallNow = clock()
        var live: [KeptSubscription] = []
        var expired: [String] = []
        for subscription in kept {
            if wallNow - subscription.idleSince >= subscription.ttl {
                expired.append(subscription.id)
            } else {
                live.append(subscription)
            }
        }
        let queues = queues(of: live, from: logged)
        var restored: [EventBus.RestoredSubscription] = []
        var written: [String: KeptSubscriptionState] = [:]
        var changes = SubscriptionChanges(closed: expired)
        for (index, subscription) in live.enumerated() {
            var patterns: [Pattern] = []
            for type in subscription.types where type.through == nil {
                if let pattern = try? Pattern(type.pattern), (try? bus.type(pattern: pattern)) != nil {
                    patterns.append(pattern)
                } else if !changes.retired.contains(where: { $0.shape == type.shape }) {
                    // A type no longer registered (its removal's write lost) is retired now, or registering its
                    // pattern again would bring it back to the subscription at the next start.
                    changes.retired.append(.init(shape: type.shape, through: bus.lastSeq, removals: 0))
                }
            }
            restored.append(
                .init(
                    id: subscription.id, patterns: patterns, ttl: .milliseconds(subscription.ttl),
                    idle: .milliseconds(max(0, wallNow - subscription.idleSince)),
                    cursor: max(subscription.cursor, subscription.heldFrom - 1), missed: subscription.missed,
                    events: queues[index]))
            written[subscription.id] = subscription.state
        }
        bus.restore(restored, now: now)
        try store.saveSubscriptionChanges(changes)
        state.withLock { state in
            state.written = written
            state.cut = live.map(\.heldFrom).min() ?? 0
        }
        if !kept.isEmpty {
            logger.info(
                "subscriptions restored",
                metadata: [
                    "subscriptions": "\(live.count)", "expired": "\(expired.count)", "events": "\(logged.count)",
                ])
        }
        return live.count
    }

    /// The queue of each of `live` rebuilt from the log: the events from its `heldFrom` on that reached one of its
    /// types (through the `seq` it was removed at), each once, with the best of its types the event matched (rank
    /// order), as the emit delivered it. An event that does not read back is logged and skipped.
    private func queues(of live: [KeptSubscription], from logged: [KeptEvent]) -> [[Event]] {
        var holders: [String: [(index: Int, through: Int?)]] = [:]
        for (index, subscription) in live.enumerated() {
            for type in subscription.types { holders[type.shape, default: []].append((index, type.through)) }
        }
        var queues = [[Event]](repeating: [], count: live.count)
        var reached: Set<Int> = []
        var current: Int?
        for entry in logged {
            if entry.seq != current {
                current = entry.seq
                reached.removeAll(keepingCapacity: true)
            }
            var event: Event?
            for (index, through) in holders[entry.shape] ?? []
            where entry.seq >= live[index].heldFrom && entry.seq <= (through ?? .max) && !reached.contains(index) {
                if event == nil {
                    do {
                        event = try Event.restoring(Array(entry.body.utf8))
                    } catch {
                        logger.error(
                            "a kept event does not read back; skipped",
                            metadata: ["seq": "\(entry.seq)", "error": "\(error)"])
                        break
                    }
                }
                guard let event else { break }
                reached.insert(index)
                queues[index].append(event)
            }
        }
        return queues
    }

    // MARK: - Written before the answer

    /// Stores a subscription just opened on the bus (its 201 follows); `removals` as ``EventBus/open(_:ttl:now:)``
    /// answered it.
    func opened(id: String, types: [EventType], ttl: Duration, cursor: Int, removals: Int) throws {
        try commit(opening(id: id, types: types, ttl: ttl, cursor: cursor, removals: removals), waiting: true)
    }

    /// ``opened(id:types:ttl:cursor:removals:)`` without holding the calling thread: `done` is called once the row is
    /// committed, or with why it was not, as for ``emitted(_:then:)``.
    func opened(
        id: String, types: [EventType], ttl: Duration, cursor: Int, removals: Int,
        then done: @escaping @Sendable ((any Error)?) -> Void
    ) {
        commitLater(opening(id: id, types: types, ttl: ttl, cursor: cursor, removals: removals), then: done)
    }

    /// The row of a subscription just opened.
    private func opening(id: String, types: [EventType], ttl: Duration, cursor: Int, removals: Int) -> Pending.Change {
        let subscription = KeptSubscription(
            id: id, ttl: ttl.milliseconds, idleSince: clock(), cursor: cursor, heldFrom: cursor + 1, missed: 0,
            types: types.map { .init(pattern: $0.pattern.description, shape: $0.pattern.shape(), through: nil) })
        return .opened(subscription, removals: removals)
    }

    /// Removes a subscription just closed on the bus (its 204 follows).
    func closed(id: String) throws {
        try commit(.closed(id), waiting: true)
    }

    /// ``closed(id:)`` without holding the calling thread: `done` is called once the removal is committed, or with
    /// why it was not, as for ``emitted(_:then:)``.
    func closed(id: String, then done: @escaping @Sendable ((any Error)?) -> Void) {
        commitLater(.closed(id), then: done)
    }

    /// Commits a type's removal: its row, and its subscriptions' holding it only through `through`, in one
    /// transaction (``EventBus/remove(named:pattern:committingFirst:)`` hands over `through` and `removals`, and removes
    /// the type from the bus once this returns). Throws why it was not committed; the type then stays.
    func removingType(_ type: EventType, through: Int, removals: Int) throws {
        try commit(
            .retired(
                Retirement(shape: type.pattern.shape(), through: through, removals: removals, deletesType: true)),
            waiting: true)
    }

    /// Logs the event of an emit that reached subscriptions. With `waiting` it returns once the event is committed
    /// (the emit's 200 follows it); without, the next commit takes it (a click's `linkClick`: the click's answer
    /// does not say it was delivered).
    func emitted(_ result: EmitResult, waiting: Bool) throws {
        guard !result.reached.isEmpty else { return }
        try commit(.events(Self.kept(result)), waiting: waiting)
    }

    /// Commits a slot's change with the events it was told as (`slotChanged`, emitted on the bus): both are written
    /// in one transaction, or neither (API.md §11: a device learns of every change; an acknowledged one survives
    /// `kill -9`). Returns once committed, or throws why not; the change is then not made.
    func changedSlot(_ name: String, to presentation: Presentation?, told results: [EmitResult]) throws {
        try commit(.slot(name: name, presentation, events: results.flatMap(Self.kept)), waiting: true)
    }

    /// Logs the event of an emit that reached subscriptions without holding the calling thread: `done` is called
    /// once it is committed (or with why it was not), on the thread that wrote it (the journal's committing thread,
    /// or another writer that took it along: a sync, a subscribe's commit). Only for an emit that reached a
    /// subscription (one that reached none has nothing to commit and answers at once). The emit endpoint suspends its
    /// connection meanwhile, so a commit takes every emit in flight, not only as many as the daemon has threads.
    func emitted(_ result: EmitResult, then done: @escaping @Sendable ((any Error)?) -> Void) {
        commitLater(.events(Self.kept(result)), then: done)
    }

    /// Queues `change` for the committing thread, which calls `done` once it is written (or with why it was not).
    private func commitLater(_ change: Pending.Change, then done: @escaping @Sendable ((any Error)?) -> Void) {
        let (wake, start) = state.withLock { state in
            _ = state.enqueue(change, done: done)
            defer {
                state.commitQueued = true
                state.committerRunning = true
            }
            return (!state.commitQueued, !state.committerRunning)
        }
        if start {
            // A thread of its own, not Dispatch's pool: the answers must not wait for a pool that work elsewhere in
            // the process may hold.
            let thread = Thread { [self] in commitWhileBusy() }
            thread.name = "linkserver-subscription-commit"
            thread.start()
        } else if wake {
            commits.lock()
            commits.signal()
            commits.unlock()
        }
    }

    /// Whether the committing thread runs.
    var committing: Bool { state.withLock { $0.committerRunning } }

    /// The committing thread: writes what ``commitLater(_:then:)`` queued, one write at a time; the changes that arrive
    /// during a write are taken by the next. Ends once nothing arrived for `committerIdle`.
    private func commitWhileBusy() {
        while true {
            commits.lock()
            while !state.withLock({ $0.commitQueued }) {
                guard !commits.wait(until: Date(timeIntervalSinceNow: committerIdle)) else { continue }
                let idle = state.withLock { state in
                    if !state.commitQueued { state.committerRunning = false }
                    return !state.committerRunning
                }
                if idle {
                    commits.unlock()
                    return
                }
            }
            commits.unlock()
            // Cleared before the batch is taken: a change queued after this takes a write of its own.
            state.withLock { $0.commitQueued = false }
            asWriter { writePending(sync: nil) }
        }
    }

    /// The log's rows of an emit's events, one per matched type, best first.
    private static func kept(_ result: EmitResult) -> [KeptEvent] {
        result.reached.enumerated().map { rank, event in
            KeptEvent(
                seq: event.seq, rank: rank, shape: event.type.pattern.shape(),
                body: String(decoding: event.encoded, as: UTF8.self))
        }
    }

    /// Queues `change` for the next commit; with `waiting`, returns once it is committed, or throws why it was not.
    /// Group commit: the first caller to find no commit running writes every change queued by then, in one
    /// transaction (one `fsync`), while the others wait for it and find theirs written.
    private func commit(_ change: Pending.Change, waiting: Bool) throws {
        let ticket = state.withLock { state in state.enqueue(change, done: nil) }
        guard waiting else { return }
        asWriter(until: ticket) { writePending(sync: nil) }
        let failed = state.withLock { state in state.failures.first { $0.tickets.contains(ticket) }?.error }
        if let failed { throw failed }
    }

    /// Sets `through` on the subscription's type that `retirement` removed, if it holds it.
    private static func retire(_ retirement: Retirement, in subscription: inout KeptSubscription) {
        for index in subscription.types.indices
        where subscription.types[index].shape == retirement.shape && subscription.types[index].through == nil {
            subscription.types[index].through = retirement.through
        }
    }

    // MARK: - Written behind

    /// Commits what clients were not waiting for: pending events, changed subscription states, subscriptions gone,
    /// and the log below every subscription's queue. Called about once a second, and at a clean stop.
    func sync(now: ContinuousClock.Instant = .now) {
        asWriter { writePending(sync: now) }
    }

    /// The last sync, at a clean stop (after the daemons, before the store closes): nothing is written after it.
    func finish() {
        asWriter {
            writePending(sync: .now)
            state.withLock { $0.finished = true }
        }
    }

    /// Runs `write` as the one writer, once no other writes; with `ticket`, only unless (or until) another writer's
    /// commit took that ticket along. Waiting callers sleep on a condition variable: a lock held across the
    /// `fsync` (a priority-inheriting futex) made them spin in the kernel while it ran.
    private func asWriter(until ticket: UInt64? = nil, _ write: () -> Void) {
        writers.lock()
        defer { writers.unlock() }
        while true {
            let (done, writes) = state.withLock { state -> (Bool, Bool) in
                if let ticket, state.settled >= ticket { return (true, false) }
                guard !state.writing else { return (false, false) }
                state.writing = true
                return (false, true)
            }
            if done { return }
            guard writes else {
                writers.wait()
                continue
            }
            writers.unlock()
            write()
            state.withLock { $0.writing = false }
            writers.lock()
            writers.broadcast()
            return
        }
    }

    /// Writes every pending change (and, with `sync`, the subscriptions' states as of that instant) in one
    /// transaction, and settles their tickets. Called by the one writer (``asWriter(until:_:)``).
    private func writePending(sync now: ContinuousClock.Instant?) {
        // Read in this order: a subscription stored before the snapshot and missing from it was removed from the bus.
        let (batch, written, cut, thinned, finished) = state.withLock { state in
            defer { state.pending.removeAll(keepingCapacity: true) }
            return (state.pending, state.written, state.cut, state.thinned, state.finished)
        }
        // A write whose changes an earlier writer took along.
        if batch.isEmpty && now == nil { return }
        var changes = SubscriptionChanges()
        for pending in batch {
            switch pending.change {
            case .opened(let subscription, _): changes.opened.append(subscription)
            case .closed(let id): changes.closed.append(id)
            case .events(let events): changes.events += events
            case .retired(let retirement): changes.retired.append(retirement)
            case .slot(let name, let presentation, let events):
                changes.slots.append((name, presentation))
                changes.events += events
            }
        }
        // What each subscription's row will hold once this batch is committed.
        var stored = written
        for subscription in changes.opened {
            stored[subscription.id] = subscription.state
        }
        if let now {
            let wallNow = clock()
            // The log keeps the last `retained` `seq`s whole; below them, only the events a subscription holds (one
            // nobody polls, to a type rarely emitted, would otherwise keep every event after its own on disk for up to
            // its `ttl`). Those stay queued across a restart: only an overflow drops an event (API.md §5).
            let oldest = bus.lastSeq - retained
            let snapshot = bus.snapshot(now: now, below: oldest)
            var keeping: [Int] = []
            var live: Set<String> = []
            live.reserveCapacity(snapshot.count)
            // A subscription whose row is still to be committed by a later batch: its dropped events must stay in the
            // log until its state is written, so the log is not cut this time.
            var unstored = false
            for subscription in snapshot {
                live.insert(subscription.id)
                guard let before = stored[subscription.id] else {
                    unstored = true
                    continue
                }
                let idleSince = wallNow - subscription.idle.milliseconds
                keeping += subscription.heldBelow
                var next = KeptSubscriptionState(
                    cursor: subscription.cursor, heldFrom: subscription.heldFrom, missed: subscription.missed,
                    idleSince: idleSince)
                // An empty queue's `heldFrom` is the next `seq`, which every emit moves. When the row was written with
                // an empty queue too (its `heldFrom` past its cursor) and neither cursor nor count moved since,
                // nothing reached it in between, so the row's older one is as good. (A row written while events were
                // queued holds them from its `heldFrom`: emptied by an acknowledgement, it must move on.)
                if subscription.queued == 0 && before.heldFrom > before.cursor && next.cursor == before.cursor
                    && next.missed == before.missed
                {
                    next.heldFrom = before.heldFrom
                }
                // Idle time moves on by itself: written again only when a poll came since, or when the stored
                // start would leave less than half the `ttl` after a crash (a poll waiting for long).
                let ttl = subscription.ttl.milliseconds
                if abs(idleSince - before.idleSince) < min(1_000, ttl / 4)
                    || (subscription.idle == .zero && wallNow - before.idleSince < ttl / 2)
                {
                    next.idleSince = before.idleSince
                }
                if next != before { changes.states[subscription.id] = next }
            }
            changes.closed += written.keys.filter { !live.contains($0) }
            // Every event that reached a subscription at or after its row's `heldFrom` stays: the lowest snapshot
            // `heldFrom` is at most that (an empty queue's row may be older, but nothing reached it since).
            let lowest = snapshot.map(\.heldFrom).min() ?? bus.lastSeq + 1
            if lowest > cut && !unstored { changes.cut = lowest }
            if oldest > lowest && !unstored {
                let thin = Thinning(below: oldest, keeping: Array(Set(keeping)).sorted())
                if thin != thinned { changes.thin = thin }
            }
        }
        let tickets = batch.first.map { $0.ticket...batch[batch.count - 1].ticket }
        // What its changes' requests are told when the write fails: a full, read-only or failing disk is the
        // machine's (503 `unavailable`), anything else unexpected (500).
        var failure: (any Error)?
        defer {
            for pending in batch { pending.done?(failure) }
        }
        do {
            // The store is closing or closed.
            if finished { throw LinkError(.unavailable, "The service is stopping") }
            try store.saveSubscriptionChanges(changes)
            state.withLock { state in
                for subscription in changes.opened { state.written[subscription.id] = stored[subscription.id] }
                for (id, next) in changes.states where state.written[id] != nil { state.written[id] = next }
                for id in changes.closed { state.written[id] = nil }
                if let cut = changes.cut { state.cut = cut }
                if let thin = changes.thin { state.thinned = thin }
                if let tickets { state.settled = max(state.settled, tickets.upperBound) }
            }
        } catch {
            let told = SQLiteStore.machineFailure(error) ?? error
            failure = told
            // After the last write nothing more is tried, nor worth an error in the log (the store is closed).
            if !finished {
                logger.error("writing subscriptions and the event log failed", metadata: ["error": "\(error)"])
            }
            state.withLock { state in
                guard let tickets else { return }
                state.settled = max(state.settled, tickets.upperBound)
                state.failures.append((tickets, told))
                if state.failures.count > SubscriptionJournal.remembered { state.failures.removeFirst() }
                // Events are tried again with the next commit, a bounded number: subscribers may hold them already
                // (woken before the commit), whether or not the emit was told of the failure; the log's
                // `INSERT OR IGNORE` takes each once.
                let again = batch.compactMap { pending -> Pending? in
                    guard case .events = pending.change else { return nil }
                    // Its emit is told of this failure: the retry tells no one.
                    return Pending(ticket: pending.ticket, change: pending.change)
                }
                if !finished { state.pending.insert(contentsOf: again.suffix(SubscriptionJournal.remembered), at: 0) }
            }
        }
    }
}
