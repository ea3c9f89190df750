import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// Slowloris: clients that trickle a request head or body are dropped once `server.headerTimeout` or
/// `server.bodyTimeout` has passed, however steadily they send; one address cannot hold more than
/// `server.connectionLimitPerAddress` connections; everyone else is served meanwhile.
@Suite(.serialized) struct SlowClientTests {
    /// One slow client: its connection and when it connected.
    private struct Trickler {
        let client: HTTPClient
        let connectedAt: ContinuousClock.Instant
        var closedAt: ContinuousClock.Instant?
    }

    /// Opens `count` connections that each send `head`, then sends one more byte on each every 100 ms until the
    /// server closes it or `deadline` passes; `meanwhile` runs once after the first round of bytes.
    private func trickle(
        _ server: TestServer, count: Int, head: String, deadline: Duration, meanwhile: () throws -> Void
    ) throws -> [Trickler] {
        var slow: [Trickler] = []
        for _ in 0..<count {
            let client = server.client()
            // Read before connecting: the server's clock for this connection starts at its accept.
            let connectedAt = ContinuousClock.now
            try client.connect(timeoutSeconds: 5)
            try client.sendRaw(Array(head.utf8))
            slow.append(Trickler(client: client, connectedAt: connectedAt))
        }
        let end = ContinuousClock.now + deadline
        var first = true
        while slow.contains(where: { $0.closedAt == nil }), ContinuousClock.now < end {
            for index in slow.indices where slow[index].closedAt == nil {
                if slow[index].client.isClosedByServer {
                    slow[index].closedAt = .now
                } else {
                    try? slow[index].client.sendRaw([UInt8(ascii: "a")])
                }
            }
            if first {
                try meanwhile()
                first = false
            }
            usleep(100_000)
        }
        return slow
    }

    /// Every slow client was dropped, none before `timeout` after it connected.
    private func expectDropped(_ slow: [Trickler], after timeout: Duration) {
        let open = slow.filter { $0.closedAt == nil }.count
        #expect(open == 0, "\(open) of \(slow.count) slow clients still connected")
        for client in slow {
            if let closedAt = client.closedAt { #expect(closedAt - client.connectedAt >= timeout) }
        }
    }

    @Test func tricklingHeadsAreDroppedAndOthersServed() throws {
        try withServer({
            $0.server.headerTimeout = 1
            $0.server.connectionTimeout = 60
        }) { (server) throws in
            let slow = try trickle(
                server, count: 200, head: "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ", deadline: .seconds(15)
            ) { () throws in
                let started = ContinuousClock.now
                let reply = try server.client().get("/healthz")
                #expect(reply.status == 200)
                // Served beside them, not after their 15 s; room for ThreadSanitizer on a loaded machine.
                #expect(ContinuousClock.now - started < .seconds(3))
            }
            expectDropped(slow, after: .seconds(1))
            #expect(try server.client().get("/healthz").status == 200)
        }
    }

    @Test func aTricklingRequestLineIsDropped() throws {
        try withServer({
            $0.server.headerTimeout = 1
            $0.server.connectionTimeout = 60
        }) { (server) throws in
            let slow = try trickle(server, count: 5, head: "GET /", deadline: .seconds(10)) {}
            expectDropped(slow, after: .seconds(1))
        }
    }

    @Test func tricklingBodiesAreDropped() throws {
        try withServer({
            $0.server.bodyTimeout = 1
            $0.server.connectionTimeout = 60
        }) { (server) throws in
            let head =
                "POST /v1/rules/evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: 100000\r\n\r\n"
            let slow = try trickle(server, count: 20, head: head, deadline: .seconds(10)) { () throws in
                #expect(try server.client().get("/healthz").status == 200)
            }
            expectDropped(slow, after: .seconds(1))
        }
    }

    @Test func aKeptAliveConnectionGetsTheHeadTimeoutForItsNextRequest() throws {
        try withServer({
            $0.server.headerTimeout = 1
            $0.server.connectionTimeout = 60
        }) { (server) throws in
            let client = server.client()
            // Read before the request: the server starts the next head's clock as it answers.
            let asked = ContinuousClock.now
            #expect(try client.get("/healthz").status == 200)
            try client.sendRaw(Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8))
            let dropped = waitUntil(timeout: .seconds(10)) {
                if client.isClosedByServer { return true }
                try? client.sendRaw([UInt8(ascii: "a")])
                return false
            }
            #expect(dropped)
            #expect(ContinuousClock.now - asked >= .seconds(1))
        }
    }

    @Test func requestsWithinTheTimeoutsAreServed() throws {
        try withServer({
            $0.server.headerTimeout = 2
            $0.server.bodyTimeout = 2
        }) { (server) throws in
            // A long-poll outlives both timeouts: once its head is in, only the poll's own wait counts.
            let client = server.client()
            let subscription = try client.post("/v1/events/subscriptions", ["events": [["path": "/e"]]])
            let id = try #require(subscription.json?["id"]?.stringValue)
            let started = ContinuousClock.now
            let poll = try client.get("/v1/events/subscriptions/\(id)?wait=3")
            #expect(poll.status == 200)
            #expect(ContinuousClock.now - started >= .seconds(3))
            #expect(try client.get("/healthz").status == 200)
        }
    }

    @Test func oneAddressCannotHoldMoreThanItsConnections() throws {
        try withServer({ $0.server.connectionLimitPerAddress = 5 }) { (server) throws in
            var held: [HTTPClient] = []
            for _ in 0..<5 {
                let client = server.client()
                try client.connect()
                // Answered first, so the daemon has accepted and counted it before the sixth connects (its threads
                // accept side by side: a sixth counted before the fifth was served, the fifth refused instead).
                #expect(try client.get("/healthz").status == 200)
                try client.sendRaw(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8))
                held.append(client)
            }
            // The sixth from the same address is closed at once, without an answer.
            let sixth = server.client()
            try sixth.connect(timeoutSeconds: 5)
            #expect(throws: HTTPClient.Failure.self) { try sixth.get("/healthz") }
            // Another address is served.
            let other = server.client()
            try other.connect(from: "127.0.0.2")
            #expect(try other.get("/healthz").status == 200)
            // A freed slot is usable again.
            held.removeFirst().disconnect()
            let served = waitUntil {
                let again = server.client()
                return (try? again.get("/healthz").status) == 200
            }
            #expect(served)
        }
    }
}
