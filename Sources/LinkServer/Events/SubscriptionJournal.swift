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
            case opened(KeptSubscription)
            case closed(String)
            case events([KeptEvent])
        }

        var ticket: UInt64
        var change: Change
    }

    private struct State {
        var pending: [Pending] = []
        var nextTicket: UInt64 = 0
        /// Every ticket up to this one has been written or has failed.
        var settled: UInt64 = 0
        /// The tickets of the last failed writes, with their error.
        var failures: [(tickets: ClosedRange<UInt64>, error: any Error)] = []
        /// Subscriptions stored, with their state as last written.
        var written: [String: KeptSubscriptionState] = [:]
        /// The log holds no event below this one.
        var cut = 0
        /// Whether a caller is writing a batch (group commit) or a sync.
        var writing = false
    }

    private let store: SQLiteStore
    private let bus: EventBus
    private let logger: Logger
    private let state = Mutex(State())
    /// Where callers wait for the writer (group commit, ``asWriter(until:_:)``).
    private let writers = NSCondition()
    private let clock: @Sendable () -> Int64
    /// How many `seq`s behind the last one the log keeps at most.
    let retained: Int

    init(
        store: SQLiteStore, bus: EventBus, logger: Logger,
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds
    ) {
        self.store = store
        self.bus = bus
        self.logger = logger
        self.clock = clock
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
        // Each subscription gets an event once, with the best of its types the event matched (rank order), as the
        // emit delivered it.
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
        var restored: [EventBus.RestoredSubscription] = []
        var written: [String: KeptSubscriptionState] = [:]
        for (index, subscription) in live.enumerated() {
            let patterns = subscription.types.filter { $0.through == nil }.compactMap { try? Pattern($0.pattern) }
            restored.append(
                .init(
                    id: subscription.id, patterns: patterns, ttl: .milliseconds(subscription.ttl),
                    idle: .milliseconds(max(0, wallNow - subscription.idleSince)),
                    cursor: max(subscription.cursor, subscription.heldFrom - 1), missed: subscription.missed,
                    events: queues[index]))
            written[subscription.id] = KeptSubscriptionState(
                cursor: subscription.cursor, heldFrom: subscription.heldFrom, missed: subscription.missed,
                idleSince: subscription.idleSince)
        }
        bus.restore(restored, now: now)
        try store.saveSubscriptionChanges(SubscriptionChanges(closed: expired))
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

    // MARK: - Written before the answer

    /// Stores a subscription just opened on the bus (its 201 follows).
    func opened(id: String, types: [EventType], ttl: Duration, cursor: Int) throws {
        let subscription = KeptSubscription(
            id: id, ttl: ttl.milliseconds, idleSince: clock(), cursor: cursor, heldFrom: cursor + 1, missed: 0,
            types: types.map { .init(pattern: $0.pattern.description, shape: $0.pattern.shape(), through: nil) })
        try commit(.opened(subscription), waiting: true)
    }

    /// Removes a subscription just closed on the bus (its 204 follows).
    func closed(id: String) throws {
        try commit(.closed(id), waiting: true)
    }

    /// A type was removed from the bus: its subscriptions keep what they had queued of it, and get no more.
    func removed(_ type: EventType) {
        do {
            try store.retireSubscriptionType(shape: type.pattern.shape(), through: bus.lastSeq)
        } catch {
            logger.warning("a removed type's subscriptions were not updated", metadata: ["error": "\(error)"])
        }
    }

    /// Logs the event of an emit that reached subscriptions. With `waiting` it returns once the event is committed
    /// (the emit's 200 follows it); without, the next commit takes it (a click's `linkClick`: the click's answer
    /// does not say it was delivered).
    func emitted(_ result: EmitResult, waiting: Bool) throws {
        guard !result.reached.isEmpty else { return }
        let events = result.reached.enumerated().map { rank, event in
            KeptEvent(
                seq: event.seq, rank: rank, shape: event.type.pattern.shape(),
                body: String(decoding: event.encoded, as: UTF8.self))
        }
        try commit(.events(events), waiting: waiting)
    }

    /// Queues `change` for the next commit; with `waiting`, returns once it is committed, or throws why it was not.
    /// Group commit: the first caller to find no commit running writes every change queued by then, in one
    /// transaction (one `fsync`), while the others wait for it and find theirs written.
    private func commit(_ change: Pending.Change, waiting: Bool) throws {
        let ticket = state.withLock { state in
            state.nextTicket += 1
            state.pending.append(Pending(ticket: state.nextTicket, change: change))
            return state.nextTicket
        }
        guard waiting else { return }
        asWriter(until: ticket) { writePending(sync: nil) }
        let failure = state.withLock { state in state.failures.first { $0.tickets.contains(ticket) }?.error }
        if let failure { throw SQLiteStore.machineFailure(failure) ?? failure }
    }

    // MARK: - Written behind

    /// Commits what clients were not waiting for: pending events, changed subscription states, subscriptions gone,
    /// and the log below every subscription's queue. Called about once a second, and at a clean stop.
    func sync(now: ContinuousClock.Instant = .now) {
        asWriter { writePending(sync: now) }
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
        let (batch, written, cut) = state.withLock { state in
            defer { state.pending.removeAll(keepingCapacity: true) }
            return (state.pending, state.written, state.cut)
        }
        var changes = SubscriptionChanges()
        for pending in batch {
            switch pending.change {
            case .opened(let subscription): changes.opened.append(subscription)
            case .closed(let id): changes.closed.append(id)
            case .events(let events): changes.events += events
            }
        }
        if let now {
            let wallNow = clock()
            // The log keeps at most `retained` `seq`s: a subscription that holds older events (one nobody polls,
            // to a type rarely emitted) would otherwise keep every event after them on disk for up to its `ttl`.
            let oldest = bus.lastSeq - retained
            let snapshot = bus.snapshot(now: now, below: oldest)
            var live: Set<String> = []
            live.reserveCapacity(snapshot.count)
            for subscription in snapshot {
                live.insert(subscription.id)
                guard let before = written[subscription.id] else { continue }
                let idleSince = wallNow - subscription.idle.milliseconds
                // Its events below `oldest` stay queued here; should the process die, they count as dropped.
                var next = KeptSubscriptionState(
                    cursor: subscription.cursor, heldFrom: max(subscription.heldFrom, oldest),
                    missed: subscription.missed + subscription.heldBelow, idleSince: idleSince)
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
            let lowest = max(snapshot.map(\.heldFrom).min() ?? bus.lastSeq + 1, oldest)
            if lowest > cut { changes.cut = lowest }
        }
        let tickets = batch.first.map { $0.ticket...batch[batch.count - 1].ticket }
        do {
            try store.saveSubscriptionChanges(changes)
            state.withLock { state in
                for subscription in changes.opened {
                    state.written[subscription.id] = KeptSubscriptionState(
                        cursor: subscription.cursor, heldFrom: subscription.heldFrom, missed: subscription.missed,
                        idleSince: subscription.idleSince)
                }
                for (id, next) in changes.states where state.written[id] != nil { state.written[id] = next }
                for id in changes.closed { state.written[id] = nil }
                if let cut = changes.cut { state.cut = cut }
                if let tickets { state.settled = max(state.settled, tickets.upperBound) }
            }
        } catch {
            logger.error("writing subscriptions and the event log failed", metadata: ["error": "\(error)"])
            state.withLock { state in
                guard let tickets else { return }
                state.settled = max(state.settled, tickets.upperBound)
                state.failures.append((tickets, error))
                if state.failures.count > 64 { state.failures.removeFirst() }
            }
        }
    }
}
