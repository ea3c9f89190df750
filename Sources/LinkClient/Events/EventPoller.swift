import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The state behind an ``EventSequence/Iterator``: the subscription, the cursor to acknowledge, and the elements
/// taken from the last answer that the consumer has not had yet.
///
/// Not `Sendable`: one iterator belongs to one consuming task, which alone calls ``next()``.
final class EventPoller {
    private let client: LinkClient
    private let types: [EventType]
    private let wait: Int
    private let ttl: Int
    private let backoff: Backoff
    /// Long-polls outlast the ordinary request timeout: `wait` + 15 s (API.md §14).
    private let pollWire: Wire

    private(set) var subscriptionID: String?
    /// The cursor the next poll acknowledges (`after`).
    private var after: Int?
    /// The `after` of the last poll sent: a larger one resets the service's `missed` count.
    private var sentAfter: Int?
    /// The part of the service's unacknowledged `missed` count already reported.
    private var reportedMissed = 0
    /// The last event `seq` handed on (what ``EventSequence/Element/resubscribed(lastSeq:)`` reports).
    private var lastSeq: Int?
    /// The last `seq` handed on from the current subscription, so that nothing goes out twice. Not carried over a
    /// re-subscribe: a new subscription only receives events emitted after it was made, and a service whose `seq`
    /// went back (its data restored from a backup) would otherwise have every new event dropped as a duplicate.
    private var deliveredSeq: Int?
    private var lostSubscription = false
    /// Whether a poll of the current subscription was answered: one lost before any was is lost again at once
    /// (a `ttl` shorter than the round trip, instances that do not share subscriptions), and re-subscribing then
    /// backs off rather than loop.
    private var polledSinceSubscribing = false
    /// Failed attempts since the last answered poll (the back-off's exponent).
    private var failures = 0
    /// Requests cancelled in a row while the consumer was not (a session delegate refusing the server's
    /// certificate cancels every one): past ``foreignCancelLimit`` the sequence ends with the error.
    private var foreignCancels = 0
    static let foreignCancelLimit = 5
    private var pending: [EventSequence.Element] = []
    private var finished = false

    init(client: LinkClient, types: [EventType], wait: Int, ttl: Int, backoff: Backoff) {
        self.client = client
        self.types = types
        self.wait = wait
        self.ttl = ttl
        self.backoff = backoff
        self.pollWire = client.wire(timeout: TimeInterval(wait + 15))
    }

    deinit {
        guard !finished else { return }
        EventPoller.close(pollWire.session, after: polling.take())
        // The consumer left the loop (`break`) without cancelling: the subscription is deleted as on a cancel, best
        // effort, rather than left queuing events until its `ttl`.
        if let id = subscriptionID { EventPoller.delete(id, with: client.wire) }
    }

    func next() async throws -> EventSequence.Element? {
        polling: while !finished {
            // The consumer's cancel ends the sequence at once, even with elements of the last answer left.
            if Task.isCancelled { break polling }
            if !pending.isEmpty { return pending.removeFirst() }
            do {
                if try await step() { failures = 0 }
                foreignCancels = 0
            } catch let error as LinkTransportError {
                // A timed-out long-poll (a proxy or the network gave up on it) is retried at once; a timed-out
                // subscribe backs off like any other failure (the service may be overloaded, and on Linux the
                // request given up is left running: `DetachedCall`).
                if error.kind == .timedOut && subscriptionID != nil && !Task.isCancelled { continue polling }
                // A 2xx answer without the contract's shape is a broken deployment (another service, another
                // version), which retrying would only hide: it ends the sequence, as a 500 does.
                if error.kind == .invalidResponse {
                    await finish()
                    throw error
                }
                // The consumer's cancel ends the sequence quietly; a request cancelled otherwise is retried, a few
                // times (one cancelled by the session's delegate every time ends it with the error).
                if Task.isCancelled { break polling }
                if error.kind == .cancelled {
                    foreignCancels += 1
                    if foreignCancels >= EventPoller.foreignCancelLimit {
                        await finish()
                        throw error
                    }
                }
                if await !pause() { break polling }
            } catch let error as LinkServiceError where error.code == .subscriptionNotFound {
                subscriptionID = nil
                lostSubscription = true
                if !polledSinceSubscribing, await !pause() { break polling }
            } catch let error as LinkServiceError where error.status >= 502 && error.status <= 504 {
                // Not before the service's `Retry-After` (every 503 `unavailable` has one): while a shared store
                // is lost the service answers at once, and many clients retrying within it would only add load.
                if await !pause(after: Double(error.retryAfter ?? 0)) { break polling }
            } catch {
                await finish()
                throw error
            }
        }
        await finish()
        return nil
    }

    /// One request: subscribe when there is no subscription, else poll it. `true` when a poll was answered.
    private func step() async throws -> Bool {
        guard let id = subscriptionID else {
            let created = try await subscribe()
            subscriptionID = created.id
            polledSinceSubscribing = false
            after = created.cursor
            sentAfter = nil
            deliveredSeq = nil
            reportedMissed = 0
            if lostSubscription {
                lostSubscription = false
                pending.append(.resubscribed(lastSeq: lastSeq))
            }
            return false
        }
        let acknowledging = after != sentAfter
        let query = Operations.PollSubscription.Input.Query(after: after, wait: wait)
        let result = try await pollWire.call("pollSubscription", started: polling.keep) { client in
            try await client.pollSubscription(path: .init(id: id), query: query).ok.body.json
        }
        sentAfter = after
        polledSinceSubscribing = true
        if acknowledging { reportedMissed = 0 }
        if result.missed > reportedMissed {
            pending.append(.missed(result.missed - reportedMissed))
        }
        reportedMissed = max(reportedMissed, result.missed)
        for wireEvent in result.events where wireEvent.seq > (deliveredSeq ?? Int.min) {
            let event: Event = try JSONBridge.convert(wireEvent)
            pending.append(.event(event))
            lastSeq = event.seq
            deliveredSeq = event.seq
        }
        after = max(after ?? 0, result.cursor)
        return true
    }

    private func subscribe() async throws -> Components.Schemas.SubscriptionCreated {
        let events: [JSONValue] = types.map { type in
            var fields: [String: JSONValue] = [:]
            if let path = type.path { fields["path"] = .string(path) }
            if let name = type.name { fields["name"] = .string(name) }
            return .object(fields)
        }
        let body: Components.Schemas.SubscriptionCreate = try JSONBridge.request(
            ["events": .array(events), "ttl": .integer(Int64(ttl))] as JSONValue, for: "createSubscription")
        return try await client.wire.call("createSubscription") { client in
            try await client.createSubscription(body: .json(body)).created.body.json
        }
    }

    /// Waits before the next retry (``Backoff/delay(attempt:after:)``: `after` is a `Retry-After`); `false` when the
    /// task was cancelled meanwhile.
    private func pause(after: Double = 0) async -> Bool {
        let delay = backoff.delay(attempt: failures, after: after)
        failures += 1
        do {
            try await Task.sleep(nanoseconds: Backoff.nanoseconds(delay))
            return true
        } catch {
            return false
        }
    }

    /// Ends the sequence: deletes the subscription (in a task of its own, since the consumer's may be cancelled,
    /// and best effort: an undeleted subscription expires after its `ttl` anyway). A cancelled consumer does not
    /// wait for it (on a network that drops traffic it could take the session's timeout); one ending on an error
    /// does, for at most ``deletionWait`` and until it is cancelled, so that the subscription is usually gone when the
    /// error arrives.
    private func finish() async {
        guard !finished else { return }
        finished = true
        pending.removeAll()
        EventPoller.close(pollWire.session, after: polling.take())
        if let id = subscriptionID {
            subscriptionID = nil
            let deletion = EventPoller.delete(id, with: client.wire)
            // Waited for at most `deletionWait`, and not past the consumer's cancellation: a server that answered
            // the error and then hangs would hold it for two request timeouts.
            if !Task.isCancelled {
                _ = try? await DetachedCall.run(deadline: EventPoller.deletionWait) { await deletion.value }
            }
        }
    }

    /// Closes the polls' session once `poll` (the last poll's request, which a cancelled consumer leaves running on
    /// Linux) is over: a request made on a session already closed stops the process (FoundationNetworking's
    /// "Session invalidated"; Darwin's "Task created in a session that has been invalidated"), and a poll whose
    /// task had not yet made its request when the consumer was cancelled would make it then.
    private static func close(_ session: URLSession, after poll: Task<Void, Never>?) {
        guard let poll else {
            session.finishTasksAndInvalidate()
            return
        }
        Task {
            await poll.value
            session.finishTasksAndInvalidate()
        }
    }

    /// The task running the last poll's request (``DetachedCall``), handed over from the call as it starts.
    private final class RunningPoll: @unchecked Sendable {
        // @unchecked: `task` is read and written under `lock` only.
        private let lock = NSLock()
        private var task: Task<Void, Never>?

        @Sendable func keep(_ task: Task<Void, Never>) { lock.withLock { self.task = task } }
        func take() -> Task<Void, Never>? {
            lock.withLock {
                defer { task = nil }
                return task
            }
        }
    }

    private let polling = RunningPoll()

    /// The longest a sequence ending on an error waits for its subscription's deletion.
    static let deletionWait: TimeInterval = 10

    /// Deletes subscription `id` in a task of its own, best effort.
    @discardableResult
    private static func delete(_ id: String, with wire: Wire) -> Task<Void, Never> {
        Task {
            _ = try? await wire.call("deleteSubscription") { client in
                try await client.deleteSubscription(path: .init(id: id)).noContent
            }
        }
    }
}
