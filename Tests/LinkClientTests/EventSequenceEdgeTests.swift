import Foundation
import LinkClient
import Synchronization
import Testing

/// The event sequence against a canned service, for what the real one does rarely or never at will: a
/// cancellation with elements of an answer left, a `seq` that went back, a subscribe that times out.
@Suite struct EventSequenceEdgeTests {
    static func answer(_ status: String, _ body: String) -> String {
        "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    static func created(_ id: String, cursor: Int) -> String {
        answer("201 Created", #"{"id":"\#(id)","cursor":\#(cursor)}"#)
    }

    static func events(_ seqs: [Int], cursor: Int) -> String {
        let events = seqs.map { seq in
            #"{"seq":\#(seq),"name":null,"pattern":"/c/:i","location":"/c/\#(seq)","params":{"i":"\#(seq)"},"#
                + #""query":{},"extra":null,"time":"2026-11-30T00:00:00.000Z"}"#
        }
        return answer("200 OK", #"{"events":[\#(events.joined(separator: ","))],"cursor":\#(cursor),"missed":0}"#)
    }

    static let noContent = "HTTP/1.1 204 No Content\r\n\r\n"

    /// A cancel ends the sequence at once: the rest of an answer already received is not handed on (it was, up
    /// to a queue's worth of events after the consumer had gone).
    @Test func aCancelEndsTheSequenceWithElementsLeft() async throws {
        let server = CannedServer { line in
            if line.hasPrefix("POST /v1/events/subscriptions ") { return Self.created("s1", cursor: 0) }
            if line.hasPrefix("GET /v1/events/subscriptions/s1?") { return Self.events([1, 2, 3], cursor: 3) }
            if line.hasPrefix("DELETE ") { return Self.noContent }
            return nil
        }
        let client = server.client()
        let events = client.events([.path("/c/:i")], wait: 0)
        let (first, second) = try await Task {
            var iterator = events.makeAsyncIterator()
            let first = try await iterator.next()
            withUnsafeCurrentTask { $0?.cancel() }
            return (first, try await iterator.next())
        }.value
        guard case .event(let event) = first else {
            Issue.record("expected an event, got \(String(describing: first))")
            return
        }
        #expect(event.seq == 1)
        #expect(second == nil)
    }

    /// A new subscription's events are handed on even when their `seq` is below what the lost one delivered (a
    /// service whose data was restored from a backup): they were dropped as duplicates, for ever.
    @Test func aNewSubscriptionIsNotFilteredByTheLostOnesSeq() async throws {
        let polls = Mutex(0)
        let server = CannedServer { line in
            if line.hasPrefix("POST /v1/events/subscriptions ") {
                return polls.withLock { $0 } == 0 ? Self.created("s1", cursor: 100) : Self.created("s2", cursor: 5)
            }
            if line.hasPrefix("GET /v1/events/subscriptions/s1?") {
                let first = polls.withLock { count in
                    count += 1
                    return count == 1
                }
                return first
                    ? Self.events([101], cursor: 101)
                    : Self.answer(
                        "404 Not Found",
                        #"{"error":{"code":"subscription_not_found","message":"No such subscription."}}"#)
            }
            if line.hasPrefix("GET /v1/events/subscriptions/s2?") { return Self.events([6], cursor: 6) }
            if line.hasPrefix("DELETE ") { return Self.noContent }
            return nil
        }
        let client = server.client()
        let events = Collector(client.events([.path("/c/:i")], wait: 0))
        defer { Task { await events.cancel() } }
        #expect(try await events.nextEvent().seq == 101)
        #expect(try await events.next() == .resubscribed(lastSeq: 101))
        #expect(try await events.nextEvent().seq == 6)
    }

    /// A 2xx answer without the contract's shape ends the sequence with the error, as a 500 does: it was retried
    /// with back-off for ever, hiding a broken deployment.
    @Test func anAnswerWithoutTheContractsShapeEndsTheSequence() async throws {
        let server = CannedServer { line in
            if line.hasPrefix("POST /v1/events/subscriptions ") { return Self.created("s1", cursor: 0) }
            if line.hasPrefix("GET /v1/events/subscriptions/s1?") {
                return Self.answer("200 OK", #"{"items":[],"next":null}"#)
            }
            return Self.noContent
        }
        let client = server.client()
        let events = Collector(client.events([.path("/c/:i")], wait: 0, backoff: Backoff(initial: 0.01, maximum: 0.01)))
        let error = try await #require(throws: LinkTransportError.self) { try await events.next() }
        #expect(error.kind == .invalidResponse)
        #expect(error.operation == "pollSubscription")
    }

    /// A 503 is retried no sooner than its `Retry-After`, whatever the back-off (here none): while a shared store
    /// is lost the service answers at once, and a retry at once would spin.
    @Test func aPollAnswered503WaitsForItsRetryAfter() async throws {
        let polls = Mutex(0)
        let server = CannedServer { line in
            if line.hasPrefix("POST /v1/events/subscriptions ") { return Self.created("s1", cursor: 0) }
            if line.hasPrefix("GET /v1/events/subscriptions/s1?") {
                let first = polls.withLock { count in
                    count += 1
                    return count == 1
                }
                guard first else { return Self.events([1], cursor: 1) }
                let body = #"{"error":{"code":"unavailable","message":"The shared store cannot be reached"}}"#
                return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
            }
            if line.hasPrefix("DELETE ") { return Self.noContent }
            return nil
        }
        let client = server.client()
        // No jitter (an initial ceiling of 0): the retry waits for the Retry-After alone.
        let events = Collector(client.events([.path("/c/:i")], wait: 0, backoff: Backoff(initial: 0, maximum: 30)))
        defer { Task { await events.cancel() } }
        #expect(try await events.nextEvent().seq == 1)
        let times = server.received.requests(startingWith: "GET /v1/events/subscriptions/s1?").map(\.at)
        // The first poll (503) and the retry that answered the event; the collector may have polled again since.
        try #require(times.count >= 2)
        #expect(times[1] - times[0] >= .seconds(1), "retried after \(times[1] - times[0])")
    }

    /// A timed-out subscribe backs off, as other failures do; only a timed-out long-poll is retried at once
    /// (API.md §14). A request given up is left running on Linux (``DetachedCall``), so retrying subscribes at
    /// once could leave one unused subscription on an overloaded service per timeout.
    @Test func aTimedOutSubscribeBacksOff() async throws {
        let server = CannedServer { line in line.hasPrefix("DELETE ") ? Self.noContent : nil }
        let client = server.client(timeout: 1)
        // A back-off of days: a retry that waited for it would never come within the test.
        let events = client.events([.path("/c/:i")], wait: 0, backoff: Backoff(initial: 1e6, maximum: 1e6))
        let consumer = Task { for try await _ in events {} }
        defer { consumer.cancel() }
        let subscribes = { server.received.requests(startingWith: "POST /v1/events/subscriptions ") }
        let deadline = ContinuousClock.now + .seconds(60)
        while subscribes().isEmpty && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(subscribes().count == 1)
        // Five times the request's timeout: a subscribe retried at once would have come four times more.
        try await Task.sleep(for: .seconds(5))
        #expect(subscribes().count == 1)
    }
}
