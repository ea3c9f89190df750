import DequeModule

/// A subscriber's state inside the ``EventBus``: its event types, its bounded queue of unacknowledged events,
/// and at most one waiting poll.
struct Subscription {
    /// A poll waiting for events, completed exactly once (by an emit, its deadline, a newer poll, or a cancel).
    struct Waiter {
        let token: UInt64
        let deadline: ContinuousClock.Instant
        let complete: @Sendable (PollResult) -> Void
    }

    let id: String
    let typeIndices: Set<Int>
    let ttl: Duration
    var lastActive: ContinuousClock.Instant
    var queue: Deque<Event> = []
    /// Events dropped from the full queue since the last answer.
    var missed = 0
    /// The last `seq` handed to this subscription (or the bus's `seq` when it was created).
    var cursor: Int
    var waiter: Waiter?

    /// Drops events the client acknowledged (`seq <= after`).
    mutating func acknowledge(through after: Int) {
        while let first = queue.first, first.seq <= after { queue.removeFirst() }
    }

    /// Appends an event, dropping the oldest beyond `limit`.
    mutating func enqueue(_ event: Event, limit: Int) {
        queue.append(event)
        while queue.count > limit {
            queue.removeFirst()
            missed += 1
        }
    }

    /// Everything queued, as a poll answer; advances the cursor and resets `missed`.
    mutating func answer() -> PollResult {
        if let last = queue.last { cursor = max(cursor, last.seq) }
        let result = PollResult(events: Array(queue), cursor: cursor, missed: missed)
        missed = 0
        return result
    }

    /// Whether a poll should answer at once.
    var hasNews: Bool { !queue.isEmpty || missed > 0 }
}
