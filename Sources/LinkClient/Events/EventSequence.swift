/// The events of a subscription as an `AsyncSequence` (API.md §5), from ``LinkClient/events(_:wait:ttl:backoff:)``.
///
/// Iterating subscribes, then long-polls with cursors; a poll acknowledges what the previous one delivered (it
/// advances `after` only once the consumer has taken every event of that answer), so no event reaches the
/// consumer twice and none is skipped without a word:
/// - events the service dropped from a full queue arrive as ``Element/missed(_:)`` before the newer events;
/// - a subscription that is gone (expired while nobody polled, or lost with the service's data) is replaced, at once if
///   it had answered a poll (else after a back-off), and ``Element/resubscribed(lastSeq:)`` says that events
///   emitted meanwhile are lost;
/// - network errors and 502–504 answers are retried with ``Backoff`` (full jitter; a 503 after its
///   `Retry-After`), a timed-out poll at once;
/// - cancelling the consuming task ends the sequence and deletes the subscription.
///
/// Any other error answer (401 `unauthorized`, 404 `unknown_name`, 429 `too_many_subscriptions`, …) ends the
/// sequence by throwing it.
public struct EventSequence: AsyncSequence, Sendable {
    /// What the sequence delivers.
    public enum Element: Sendable, Hashable {
        /// An event, in `seq` order.
        case event(Event)
        /// The service dropped this many events from the subscription's bounded queue (the oldest ones).
        case missed(Int)
        /// The subscription was lost and a new one made: events after `lastSeq` (the last one delivered, `nil`
        /// before any) emitted before the new subscription existed are not delivered.
        case resubscribed(lastSeq: Int?)
    }

    let client: LinkClient
    let types: [EventType]
    let wait: Int
    let ttl: Int
    let backoff: Backoff

    public func makeAsyncIterator() -> Iterator {
        Iterator(poller: EventPoller(client: client, types: types, wait: wait, ttl: ttl, backoff: backoff))
    }

    /// Pulls events; one poll at a time, only when everything the last poll brought has been taken.
    public struct Iterator: AsyncIteratorProtocol {
        let poller: EventPoller

        public mutating func next() async throws -> Element? {
            try await poller.next()
        }

        /// The current subscription's id (`nil` before the first `next()` and after the end).
        public var subscriptionID: String? { poller.subscriptionID }
    }
}

extension LinkClient {
    /// The events of `types` as an `AsyncSequence`; see ``EventSequence``.
    ///
    /// ```swift
    /// for try await element in client.events([.name("onSeekProgress"), .path("/seek/:p")]) {
    ///     if case .event(let event) = element { print(event.params["p"] ?? "") }
    /// }
    /// ```
    /// - Parameters:
    ///   - wait: seconds a poll waits on the service when nothing is queued (0–60); each poll's request times
    ///     out after `wait` + 15 s.
    ///   - ttl: seconds the service keeps the subscription without a poll (1–3600).
    ///   - backoff: the delays between retries after network errors.
    public func events(_ types: [EventType], wait: Int = 25, ttl: Int = 300, backoff: Backoff = Backoff())
        -> EventSequence
    {
        EventSequence(client: self, types: types, wait: wait, ttl: ttl, backoff: backoff)
    }
}
