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

    /// Dropped events of one stretch: the first and last `seq`, and how many of this subscription's events
    /// between them were dropped (all of them: every event of a subscription's stream leaves its queue from the
    /// front, dropped or acknowledged, so its unacknowledged drops are one stretch of the stream).
    struct DropRun {
        var first: Int
        var last: Int
        var count: Int
        /// Whether a cursor was handed out between this run and the next: an acknowledgement may name it, so the
        /// two are never merged (while others can be).
        var endsAtCursor = false

        /// Every `seq` from `first` to `last` is one of the run's events, so an acknowledgement inside the run
        /// can be counted exactly.
        var isDense: Bool { count == last - first + 1 }
    }

    /// Runs of dropped events kept before two are merged, and cursors remembered to keep runs apart. The count
    /// stays exact; past the limit only how an acknowledgement *inside* a merged run is attributed coarsens,
    /// erring towards reporting more. Cursors handed out always fall between runs (a drop is older than every
    /// queued event), so an acknowledgement with a cursor it was given is exact while fewer than this many
    /// answers went unacknowledged.
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
    /// Dropped events not yet acknowledged, as runs in `seq` order. API.md §5: `missed` is reset only by an
    /// acknowledgement, so a lost answer loses no count.
    @exclusivity(unchecked) private var drops: Deque<DropRun> = []
    /// The last cursor handed out and not yet acknowledged (`Int.min`: none). A drop that follows a cursor handed
    /// out starts a new run, so that acknowledging with that cursor counts exactly.
    @exclusivity(unchecked) private var latestHandedOut = Int.min
    /// Cursors handed out before `latestHandedOut` and not yet acknowledged, ascending (at most ``maxDropRuns``):
    /// an answer lost, or polls without `after`. `nil` when none, as in the usual rhythm (an answer, a poll that
    /// acknowledges it, the next answer), which then never touches a collection (per answered poll of a fan-out).
    @exclusivity(unchecked) private var earlierHandedOut: Deque<Int>?
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

    /// A copy of the queue, the drops and the cursors (no waiter), to work out an answer without changing this one.
    func copy() -> Subscription {
        let copy = Subscription(id: id, typeIndices: typeIndices, ttl: ttl, lastActive: lastActive, cursor: cursor)
        copy.queue = queue
        copy.drops = drops
        copy.latestHandedOut = latestHandedOut
        copy.earlierHandedOut = earlierHandedOut
        copy.missed = missed
        return copy
    }

    /// Whether the subscription went unpolled for its `ttl` by `now` (a waiting poll keeps it alive).
    func hasExpired(at now: ContinuousClock.Instant) -> Bool {
        waiter == nil && now - lastActive >= ttl
    }

    /// Drops events the client acknowledged (`seq <= after`, API.md §5: a poll answers the events newer than
    /// `after`), and the count of dropped ones among them, whether or not they were handed out (a client may take an
    /// emit's `seq` for its cursor). An `after` past `latest`, the newest `seq` of the bus, was never handed out by
    /// it (a cursor kept across a reset of the data folder, say): it acknowledges only what this subscription was
    /// handed, so that it cannot swallow every event to come up to it, unseen and uncounted. (The shared store
    /// draws the same line, `PostgresStore.pollSubscription`.)
    func acknowledge(through requested: Int, latest: Int) {
        let after = requested <= latest ? requested : cursor
        // Everything acknowledged counts as handed out: an empty answer's cursor is not below the client's.
        cursor = max(cursor, after)
        while let first = queue.first, first.seq <= after { queue.removeFirst() }
        while let first = drops.first, first.first <= after {
            if first.last <= after {
                drops.removeFirst()
                missed -= first.count
            } else {
                // Inside a run: exact when the run is dense; otherwise the run stays whole until passed.
                if first.isDense {
                    let acknowledged = after - first.first + 1
                    drops[0].first = after + 1
                    drops[0].count -= acknowledged
                    missed -= acknowledged
                }
                break
            }
        }
        if latestHandedOut <= after { latestHandedOut = Int.min }
        if earlierHandedOut != nil {
            while let first = earlierHandedOut?.first, first <= after { earlierHandedOut?.removeFirst() }
            if earlierHandedOut?.isEmpty == true { earlierHandedOut = nil }
        }
    }

    /// Appends an event, dropping the oldest beyond `limit`.
    func enqueue(_ event: Event, limit: Int) {
        queue.append(event)
        while queue.count > limit {
            drop(queue.removeFirst().seq)
        }
    }

    /// Counts the event `seq` as dropped: it extends the last run when it follows it with no cursor handed out in
    /// between, else starts a new one.
    private func drop(_ seq: Int) {
        missed += 1
        if let last = drops.last {
            if cursorHandedOut(from: last.last, below: seq) {
                drops[drops.count - 1].endsAtCursor = true
            } else if last.isDense && seq == last.last + 1 {
                drops[drops.count - 1].last = seq
                drops[drops.count - 1].count += 1
                return
            }
        }
        drops.append(DropRun(first: seq, last: seq, count: 1))
        if drops.count > Subscription.maxDropRuns { mergeTwoRuns() }
    }

    /// Whether a cursor in `from..<below` was handed out (and not yet acknowledged).
    private func cursorHandedOut(from lower: Int, below upper: Int) -> Bool {
        if latestHandedOut != Int.min && latestHandedOut < upper { return latestHandedOut >= lower }
        for handed in (earlierHandedOut ?? []).reversed() where handed < upper { return handed >= lower }
        return false
    }

    /// Merges the oldest two neighbouring runs with no cursor between them, or the oldest two when every pair has
    /// one (more than ``maxDropRuns`` answers unacknowledged).
    private func mergeTwoRuns() {
        let index = drops.indices.dropLast().first { !drops[$0].endsAtCursor } ?? drops.startIndex
        let next = drops.remove(at: index + 1)
        drops[index].last = next.last
        drops[index].count += next.count
        drops[index].endsAtCursor = next.endsAtCursor
    }

    /// Remembers a cursor handed out in an answer, in order, at most ``maxDropRuns`` of them.
    private func handOut(_ handed: Int) {
        if handed == latestHandedOut { return }
        if latestHandedOut == Int.min {
            latestHandedOut = handed
            return
        }
        var earlier = earlierHandedOut.take() ?? []
        if handed > latestHandedOut {
            earlier.append(latestHandedOut)
            latestHandedOut = handed
        } else if !earlier.contains(handed) {
            // Defensive: cursors handed out never decrease today (a released poll's empty answer comes with an
            // empty queue, so its cursor is the subscription's), but a lower one would still be kept in order.
            earlier.insert(handed, at: earlier.lastIndex { $0 < handed }.map { $0 + 1 } ?? earlier.startIndex)
        }
        if earlier.count >= Subscription.maxDropRuns { earlier.removeFirst() }
        earlierHandedOut = earlier
    }

    /// The `seq` of the oldest event queued.
    var oldestQueued: Int? { queue.first?.seq }

    /// The `seq`s of the queued events below `seq`, oldest first (the queue is in `seq` order).
    func queuedSeqs(below seq: Int) -> [Int] {
        var low = queue.startIndex
        var high = queue.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if queue[middle].seq < seq { low = middle + 1 } else { high = middle }
        }
        return queue[queue.startIndex..<low].map(\.seq)
    }

    /// Counts `missed` dropped events, all below `seq`, of a subscription brought back after a restart: the order of
    /// their `seq`s is not known, so they are one run that only an acknowledgement through `seq - 1` clears (erring
    /// towards reporting more, as a merged run does).
    func restore(missed count: Int, before seq: Int) {
        guard count > 0 else { return }
        // A run from -1 is never dense (no event has a `seq` below 1), so it stays whole until passed.
        drops = [DropRun(first: -1, last: seq - 1, count: count)]
        missed = count
    }

    /// Stops delivering the event type at `index` (it was removed).
    func forget(type index: Int) {
        typeIndices.remove(index)
    }

    /// Everything queued, as a poll answer, and advances the cursor. Nothing is reset: only a poll with a larger
    /// `after` acknowledges events and dropped counts.
    func answer() -> PollResult {
        if let last = queue.last { cursor = max(cursor, last.seq) }
        handOut(cursor)
        return PollResult(events: queue, cursor: cursor, missed: missed)
    }

    /// An empty answer (a released or cancelled poll) that still reports the unacknowledged dropped count.
    /// Its cursor never passes a queued event, so acknowledging it cannot drop an event the client never saw.
    func emptyAnswer() -> PollResult {
        let safe = queue.first.map { min(cursor, $0.seq - 1) } ?? cursor
        handOut(safe)
        return PollResult(events: [], cursor: safe, missed: missed)
    }

    /// Whether a poll should answer at once.
    var hasNews: Bool { !queue.isEmpty || missed > 0 }
}
