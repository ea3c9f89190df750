import GRDB
import LinkCore
import Logging
import Synchronization
import Testing

@testable import LinkServer

/// A long-poll that fails after its connection was suspended is answered by no dispatcher: its endpoint answers it
/// as ``APIDispatcher`` answers any other request (API.md §1: a machine failure of the store is 503, anything else
/// unexpected 500) and logs why.
@Suite struct WaitingPollFailureTests {
    /// The embedded hub, but a poll that must wait fails with `failure` (as a shared store's round trip may).
    struct FailingHub: EventHub {
        let base = LocalEventHub(types: EventBus())
        let failure: any Error

        var types: EventBus { base.types }
        var subscriptionCount: Int { base.subscriptionCount }
        var waitingCount: Int { base.waitingCount }
        var pollsOnce: Bool { true }  // every poll goes straight to the suspended connection
        func subscribe(_ requests: [EventTypeRequest], ttl: Duration, registering: Bool) throws -> (
            id: String, cursor: Int
        ) {
            try base.subscribe(requests, ttl: ttl, registering: registering)
        }
        func cancel(_ id: String) throws { try base.cancel(id) }
        func poll(_ id: String, after: Int?, wait: Duration, waiter: any PollAnswerWaiter) throws -> PollAnswer? {
            throw failure
        }
        func peek(_ id: String, after: Int?) throws -> PollAnswer { try base.peek(id, after: after) }
        func emit(_ location: Location, extra: JSONValue, time: String) throws -> EmitResult {
            try base.emit(location, extra: extra, time: time)
        }
        func releaseAll() { base.releaseAll() }
        func expire(now: ContinuousClock.Instant) -> ContinuousClock.Instant? { base.expire(now: now) }
        func withCurrentTypes<Value>(_ body: () throws -> Value) throws -> Value { try base.withCurrentTypes(body) }
        func emitIfHeard(_ event: () -> (location: Location, extra: JSONValue, time: String)) throws {
            try base.emitIfHeard(event)
        }
    }

    /// The suspended request's handle: what it was completed with.
    final class Pending: PendingReply {
        let responses = Mutex<[Response]>([])
        func complete(_ response: Response) -> Bool {
            responses.withLock { $0.append(response) }
            return true
        }
        func answered(_ answer: PollAnswer) {}
    }

    /// Polls `/v1/events/subscriptions/s-1?wait=5` on endpoints whose hub fails with `failure`; answers the
    /// response and the log's lines (`message request.id error`).
    private static func poll(failingWith failure: any Error) throws -> (Response, [String]) {
        let store = try SQLiteStore(directory: TestServer.temporaryDirectory())
        defer { try? store.close() }
        let hub = FailingHub(failure: failure)
        let capture = DaemonLogTests.Capture()
        let logger = Logger(label: "test", factory: capture.handler)
        let endpoints = EventEndpoints(
            types: LiveEventTypes(hub: hub, store: store), timer: DeadlineTimer(hub: hub),
            locations: LocationParser(hosts: nil), auth: TokenCheck(), logger: logger)
        let poll = try #require(
            endpoints.endpoints.first { $0.method == "GET" && $0.template == "/v1/events/subscriptions/{id}" })
        let request = Request(method: "GET", path: "/v1/events/subscriptions/s-1", rawQuery: "wait=5", id: "r-7")
        guard case .later(let start) = try poll.handler(request, ["id": "s-1"]) else {
            Issue.record("the poll was answered at once")
            return (Response(status: 0), [])
        }
        let pending = Pending()
        start(pending)
        let responses = pending.responses.withLock { $0 }
        try #require(responses.count == 1)
        let log = capture.entries.withLock { entries in
            entries.map { "\($0.message) \($0.metadata["request.id"] ?? "-") \($0.metadata["error"] ?? "-")" }
        }
        return (responses[0], log)
    }

    @Test func aFullDiskIs503AndLogged() throws {
        let (response, log) = try Self.poll(failingWith: DatabaseError(resultCode: .SQLITE_FULL, message: "full"))
        #expect(response.status == 503)
        let envelope = try JSONParser.parse(response.body)
        #expect(envelope["error"]?["code"] == "unavailable")
        #expect(envelope["error"]?["details"]?["reason"] == "the disk is full")
        #expect(log.count == 1)
        #expect(log.first?.hasPrefix("request failed r-7 ") == true)
        #expect(log.first?.contains("full") == true)
    }

    @Test func anythingElseIs500AndLogged() throws {
        struct Surprise: Error {}
        let (response, log) = try Self.poll(failingWith: Surprise())
        #expect(response.status == 500)
        #expect(try JSONParser.parse(response.body)["error"]?["code"] == "internal")
        #expect(log == ["request failed r-7 Surprise()"])
    }
}
