import DequeModule

/// Whoever waits for a long-poll's answer: the bus calls ``pollAnswered(_:)`` exactly once, after its lock is
/// released, from whichever thread answered (an emit, a deadline, a newer poll, a cancel). The server's waiter is
/// the suspended request itself, so a waiting poll costs no object or closure of its own.
public protocol PollWaiter: AnyObject, Sendable {
    func pollAnswered(_ result: PollResult)
}

/// A waiter that hands the answer to a closure (tests, and callers without an object of their own).
public final class PollCallback: PollWaiter {
    private let body: @Sendable (PollResult) -> Void

    public init(_ body: @escaping @Sendable (PollResult) -> Void) {
        self.body = body
    }

    public func pollAnswered(_ result: PollResult) { body(result) }
}

/// A subscriber's state inside the ``EventBus``: its event types, its bounded queue of unacknowledged events,
/// the events that queue dropped, and at most one waiting poll.
///
/// A reference type, only ever touched under the bus's lock: an emit appends to a queue in place, so fan-out
/// costs O(1) per subscriber whatever the queue length (a value type taken out of the dictionary and written
/// back would copy its queue on every enqueue).
final class Subscription {
    /// A poll waiting for events, completed exactly once (by an emit, its deadline, a newer poll, or a cancel).
    /// Its deadline is kept in the bus's deadline heap only: a `ContinuousClock.Instant` here (a type of the
    /// standard library that may change its layout) made every copy and `Optional` check of a waiter a call
    /// through the type's value witnesses (~1,400 instructions per answered poll in a fan-out).
    struct Waiter {
        let token: UInt64
        let target: any PollWaiter

        func complete(_ result: PollResult) { target.pollAnswered(result) }
    }

    /// Runs of dropped events kept before the oldest two are merged (the count stays exact; only how precisely
    /// an acknowledgement of very old drops is attributed coarsens, and it errs towards reporting more).
    static let maxDropRuns = 64

    // A subscription is read and changed only under its bus's lock (`EventBus.state`), so its variables skip the
    // runtime's exclusivity check of a class property (`@exclusivity(unchecked)`: a call with a thread-local lookup
    // on every access, seven per answered poll in a fan-out, ~600 instructions; docs/benchmarks.md). Swift still
    // checks what it can see at compile time.
    let id: String
    @exclusivity(unchecked) private(set) var typeIndices: Set<Int>
    let ttl: Duration
    @exclusivity(unchecked) var lastActive: ContinuousClock.Instant
    @exclusivity(unchecked) private(set) var queue: Deque<Event> = []
    /// Dropped events not yet acknowledged, as runs `(seq of the run's last event, events in the run)` in `seq`
    /// order. API.md §5: `missed` is reset only by an acknowledgement, so a lost answer loses no count.
    @exclusivity(unchecked) private var drops: Deque<(seq: Int, count: Int)> = []
    /// The number of dropped events not yet acknowledged.
    @exclusivity(unchecked) private(set) var missed = 0
    /// The last `seq` handed to this subscription (or the bus's `seq` when it was created).
    @exclusivity(unchecked) private(set) var cursor: Int
    @exclusivity(unchecked) var waiter: Waiter?

    init(id: String, typeIndices: Set<Int>, ttl: Duration, lastActive: ContinuousClock.Instant, cursor: Int) {
        self.id = id
        self.typeIndices = typeIndices
        self.ttl = ttl
        self.lastActive = lastActive
        self.cursor = cursor
    }

    /// Whether the subscription went unpolled for its `ttl` by `now` (a waiting poll keeps it alive).
    func hasExpired(at now: ContinuousClock.Instant) -> Bool {
        waiter == nil && now - lastActive >= ttl
    }

    /// Drops events the client acknowledged (`seq <= after`), and the count of dropped ones among them.
    func acknowledge(through after: Int) {
        while let first = queue.first, first.seq <= after { queue.removeFirst() }
        while let first = drops.first, first.seq <= after {
            drops.removeFirst()
            missed -= first.count
        }
    }

    /// Appends an event, dropping the oldest beyond `limit`.
    func enqueue(_ event: Event, limit: Int) {
        queue.append(event)
        while queue.count > limit {
            let dropped = queue.removeFirst()
            missed += 1
            drops.append((dropped.seq, 1))
            if drops.count > Subscription.maxDropRuns {
                let first = drops.removeFirst()
                drops[0].count += first.count
            }
        }
    }

    /// Stops delivering the event type at `index` (it was removed).
    func forget(type index: Int) {
        typeIndices.remove(index)
    }

    /// Everything queued, as a poll answer, and advances the cursor. Nothing is reset: only a poll with a larger
    /// `after` acknowledges events and dropped counts.
    func answer() -> PollResult {
        if let last = queue.last { cursor = max(cursor, last.seq) }
        return PollResult(events: queue, cursor: cursor, missed: missed)
    }

    /// An empty answer (a released or cancelled poll) that still reports the unacknowledged dropped count.
    /// Its cursor never passes a queued event, so acknowledging it cannot drop an event the client never saw.
    func emptyAnswer() -> PollResult {
        let safe = queue.first.map { min(cursor, $0.seq - 1) } ?? cursor
        return PollResult(events: [], cursor: safe, missed: missed)
    }

    /// Whether a poll should answer at once.
    var hasNews: Bool { !queue.isEmpty || missed > 0 }
}
