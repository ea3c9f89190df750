import Foundation
import LinkCore
import Testing

@testable import LinkServer

#if canImport(Glibc)
    import Glibc
#endif

/// `/v1/events…` over HTTP against the real daemon, long-polls on suspended connections included.
@Suite struct EventEndpointTests {
    static let seek: JSONValue = ["events": [["path": "/seek/:progress", "name": "onSeekProgress"]]]
    /// The types every server starts with (API.md §7, §11).
    static let builtIn: [JSONValue] = [
        ["pattern": "/links/clicks/:route", "name": "linkClick"], ["pattern": "/slots/:slot", "name": "slotChanged"],
    ]

    private func subscribe(_ client: HTTPClient, _ body: JSONValue = seek) throws -> (id: String, cursor: Int) {
        let reply = try client.post("/v1/events/subscriptions", body)
        #expect(reply.status == 201)
        return (try #require(reply.json?["id"]?.stringValue), try #require(reply.json?["cursor"]?.intValue))
    }

    /// Sends a poll on its own connection without reading the answer.
    private func startPoll(_ server: TestServer, _ id: String, query: String = "wait=30") throws -> HTTPClient {
        let client = server.client()
        try client.sendRaw(Array("GET /v1/events/subscriptions/\(id)?\(query) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        return client
    }

    private func waiting(_ server: TestServer) -> Int { server.application.events.bus.waitingCount }

    @Test func subscribeEmitAndPoll() throws {
        try withServer { (server) throws in
            let client = server.client()
            let created = try client.post("/v1/events/subscriptions", Self.seek)
            #expect(created.status == 201)
            let id = try #require(created.json?["id"]?.stringValue)
            #expect(created.header("Location") == "/v1/events/subscriptions/\(id)")
            #expect(created.json?["cursor"] == 0)
            let emitted = try client.post("/v1/events/emit", ["loc": "/seek/1?x=1", "extra": ["at": 1.5]])
            #expect(emitted.status == 200)
            #expect(emitted.json == ["seq": 1, "delivered": 1, "matched": ["onSeekProgress"]])
            let polled = try client.get("/v1/events/subscriptions/\(id)?after=0&wait=0")
            #expect(polled.status == 200)
            let event = try #require(polled.json?["events"]?.arrayValue?.first)
            #expect(event["seq"] == 1)
            #expect(event["name"] == "onSeekProgress")
            #expect(event["pattern"] == "/seek/:progress")
            #expect(event["location"] == "/seek/1?x=1")
            #expect(event["params"] == ["progress": "1"])
            #expect(event["query"] == ["x": "1"])
            #expect(event["extra"] == ["at": 1.5])
            // api-notes: RFC 3339 UTC with milliseconds, e.g. `2025-01-01T12:00:00.123Z`.
            let time = try #require(event["time"]?.stringValue)
            #expect(time.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil, "\(time)")
            #expect(polled.json?["cursor"] == 1)
            #expect(polled.json?["missed"] == 0)
            // Acknowledged with after=1: nothing left.
            #expect(try client.get("/v1/events/subscriptions/\(id)?after=1&wait=0").json?["events"] == [])
            let types = try client.get("/v1/events")
            #expect(
                types.json
                    == ["events": .array(Self.builtIn + [["pattern": "/seek/:progress", "name": "onSeekProgress"]])])
        }
    }

    @Test func emitByNameAndEmitErrors() throws {
        try withServer { (server) throws in
            let client = server.client()
            let (id, _) = try subscribe(client)
            let byName = try client.post(
                "/v1/events/emit", ["name": "onSeekProgress", "params": ["progress": "50"], "query": ["s": "1"]])
            #expect(byName.json?["delivered"] == 1)
            let event = try client.get("/v1/events/subscriptions/\(id)?wait=0").json?["events"]?.arrayValue?.first
            #expect(event?["location"] == "/seek/50?s=1")
            #expect(event?["extra"] == .null)
            #expect(try client.post("/v1/events/emit", ["loc": "/nothing"]).errorCode == "no_match")
            #expect(try client.post("/v1/events/emit", ["name": "nobody"]).errorCode == "unknown_name")
            let missing = try client.post("/v1/events/emit", ["name": "onSeekProgress"])
            #expect(missing.status == 400)
            #expect(missing.errorCode == "missing_params")
            #expect(try client.post("/v1/events/emit", ["loc": "/seek/1", "name": "x"]).errorCode == "invalid_request")
            #expect(try client.post("/v1/events/emit", ["loc": "/seek/%zz"]).errorCode == "invalid_url")
            #expect(try client.post("/v1/events/emit", ["loc": "/seek/1", "bogus": 1]).errorCode == "invalid_request")
        }
    }

    @Test func typeWithoutSubscribersDeliversNothing() throws {
        try withServer { (server) throws in
            let client = server.client()
            let (id, _) = try subscribe(client)
            #expect(try client.request("DELETE", "/v1/events/subscriptions/\(id)").status == 204)
            let emitted = try client.post("/v1/events/emit", ["loc": "/seek/9"])
            #expect(emitted.status == 200)
            #expect(emitted.json?["delivered"] == 0)
            let gone = try client.get("/v1/events/subscriptions/\(id)?wait=0")
            #expect(gone.status == 404)
            #expect(gone.errorCode == "subscription_not_found")
            #expect(
                try client.request("DELETE", "/v1/events/subscriptions/\(id)").errorCode == "subscription_not_found")
        }
    }

    @Test func subscriptionRequestsAreValidated() throws {
        try withServer({ $0.maxSubscriptions = 2 }) { (server) throws in
            let client = server.client()
            #expect(try client.post("/v1/events/subscriptions", ["events": []]).errorCode == "invalid_request")
            #expect(try client.post("/v1/events/subscriptions", ["events": [[:]]]).errorCode == "invalid_request")
            #expect(
                try client.post("/v1/events/subscriptions", ["events": [["path": "/a"]], "ttl": 0]).errorCode
                    == "invalid_request")
            #expect(
                try client.post("/v1/events/subscriptions", ["events": [["path": "/a"]], "ttl": 3601]).errorCode
                    == "invalid_request")
            #expect(
                try client.post("/v1/events/subscriptions", ["events": [["path": "a/:x:y"]]]).errorCode
                    == "invalid_pattern")
            #expect(
                try client.post("/v1/events/subscriptions", ["events": [["name": "x"]]]).errorCode == "unknown_name")
            _ = try subscribe(client)
            let conflict = try client.post(
                "/v1/events/subscriptions", ["events": [["path": "/other", "name": "onSeekProgress"]]])
            #expect(conflict.status == 409)
            #expect(conflict.errorCode == "name_conflict")
            _ = try subscribe(client)
            let tooMany = try client.post("/v1/events/subscriptions", Self.seek)
            #expect(tooMany.status == 429)
            #expect(tooMany.errorCode == "too_many_subscriptions")
        }
    }

    @Test func pollParametersAreValidated() throws {
        try withServer { (server) throws in
            let client = server.client()
            let (id, _) = try subscribe(client)
            for query in [
                "after=-1", "after=x", "after=+1", "after=%201", "after=", "wait=61", "wait=-1", "wait=abc", "wait=+5",
            ] {
                let reply = try client.get("/v1/events/subscriptions/\(id)?\(query)")
                #expect(reply.status == 400, "\(query)")
                #expect(reply.errorCode == "invalid_request", "\(query)")
            }
            #expect(try client.get("/v1/events/subscriptions/nope?wait=0").errorCode == "subscription_not_found")
        }
    }

    @Test func aWaitingPollIsWokenByAnEmitFromAnotherConnection() throws {
        try withServer { (server) throws in
            let (id, cursor) = try subscribe(server.client())
            let poller = try startPoll(server, id, query: "after=\(cursor)&wait=60")
            #expect(waitUntil { waiting(server) == 1 })
            #expect(try server.client().post("/v1/events/emit", ["loc": "/seek/7"]).json?["delivered"] == 1)
            let answer = try poller.readResponse()
            #expect(answer.status == 200)
            #expect(answer.json?["events"]?.arrayValue?.map { $0["params"] } == [["progress": "7"]])
            #expect(answer.json?["cursor"] == 1)
            // The resumed connection stays usable.
            #expect(try poller.get("/healthz").status == 200)
        }
    }

    /// §5: a poll "returns at once if events newer than `after` are queued", however long its `wait`: the client
    /// gives up long before the 60 s the poll may wait.
    @Test func aPollWithEventsQueuedIsAnsweredAtOnce() throws {
        try withServer { (server) throws in
            let (id, cursor) = try subscribe(server.client())
            #expect(try server.client().post("/v1/events/emit", ["loc": "/seek/3"]).status == 200)
            let client = server.client()
            try client.connect(timeoutSeconds: 20)
            let answer = try client.get("/v1/events/subscriptions/\(id)?after=\(cursor)&wait=60")
            #expect(answer.status == 200)
            #expect(answer.json?["events"]?.arrayValue?.map { $0["params"] } == [["progress": "3"]])
            #expect(waiting(server) == 0)
        }
    }

    /// §5: `wait` defaults to 25 s, not to an answer at once (a client that leaves it out must not poll in a busy
    /// loop): a poll without it is held until an emit answers it.
    @Test func aPollWithoutWaitWaits() throws {
        try withServer { (server) throws in
            let (id, cursor) = try subscribe(server.client())
            let poller = server.client()
            try poller.sendRaw(
                Array("GET /v1/events/subscriptions/\(id)?after=\(cursor) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(waitUntil { waiting(server) == 1 })
            #expect(try server.client().post("/v1/events/emit", ["loc": "/seek/9"]).json?["delivered"] == 1)
            let answer = try poller.readResponse()
            #expect(answer.json?["events"]?.arrayValue?.map { $0["params"] } == [["progress": "9"]])
        }
    }

    /// §5: `ttl` defaults to 300 s and may be anything in 1–3600: a subscription made without one is kept 300 s
    /// after its last poll, not a second more (the hub's expiry run at chosen instants).
    @Test func aSubscriptionLivesItsTTLDefaultingTo300Seconds() throws {
        try withServer { (server) throws in
            let client = server.client()
            #expect(
                try client.post("/v1/events/subscriptions", ["events": [["path": "/e"]], "ttl": 3600]).status == 201)
            let hub = server.application.events.hub
            _ = try subscribe(client, ["events": [["path": "/e"]]])
            let subscribed = ContinuousClock.now
            _ = hub.expire(now: subscribed + .seconds(299))
            #expect(hub.subscriptionCount == 2)
            _ = hub.expire(now: ContinuousClock.now + .seconds(301))
            #expect(hub.subscriptionCount == 1)
            _ = hub.expire(now: ContinuousClock.now + .seconds(3601))
            #expect(hub.subscriptionCount == 0)
        }
    }

    @Test func aPollTimesOutEmptyAfterItsWait() throws {
        try withServer { (server) throws in
            let client = server.client()
            let (id, _) = try subscribe(client)
            let started = ContinuousClock.now
            let answer = try client.get("/v1/events/subscriptions/\(id)?wait=1")
            #expect(answer.status == 200)
            #expect(answer.json?["events"] == [])
            #expect(ContinuousClock.now - started >= .seconds(1))
            #expect(waiting(server) == 0)
        }
    }

    @Test func oneEmitWakesFiveHundredWaitingPolls() throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = min(limit.rlim_max, 4096)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        try withServer { (server) throws in
            let client = server.client()
            var pollers: [HTTPClient] = []
            for _ in 0..<500 {
                let (id, _) = try subscribe(client, ["events": [["path": "/broadcast"]]])
                pollers.append(try startPoll(server, id, query: "wait=60"))
            }
            #expect(waitUntil { waiting(server) == 500 })
            #expect(server.application.daemon.suspendedConnections == 500)
            #expect(try client.post("/v1/events/emit", ["loc": "/broadcast"]).json?["delivered"] == 500)
            var answered = 0
            for poller in pollers {
                let reply = try poller.readResponse()
                if reply.status == 200, reply.json?["events"]?.arrayValue?.count == 1 { answered += 1 }
            }
            #expect(answered == 500)
            #expect(waitUntil { server.application.daemon.suspendedConnections == 0 })
        }
    }

    @Test func aSecondPollReleasesTheFirst() throws {
        try withServer { (server) throws in
            let (id, _) = try subscribe(server.client())
            let first = try startPoll(server, id)
            #expect(waitUntil { waiting(server) == 1 })
            let second = try startPoll(server, id)
            let released = try first.readResponse()
            #expect(released.status == 200)
            #expect(released.json?["events"] == [])
            #expect(waitUntil { waiting(server) == 1 })
            _ = try server.client().post("/v1/events/emit", ["loc": "/seek/3"])
            #expect(try second.readResponse().json?["events"]?.arrayValue?.count == 1)
        }
    }

    /// `HEAD` of a poll is safe (RFC 9110 §9.2.1): it answers at once, with the headers a poll without wait would
    /// get now (its `Content-Length` too), and acknowledges nothing, releases no waiting poll.
    @Test func aHeadOfAPollChangesNothing() throws {
        try withServer { (server) throws in
            let client = server.client()
            let (id, _) = try subscribe(client)
            for progress in 1...2 { _ = try client.post("/v1/events/emit", ["loc": .string("/seek/\(progress)")]) }
            let path = "/v1/events/subscriptions/\(id)"
            let full = try client.get("\(path)?wait=0")
            #expect(full.json?["events"]?.arrayValue?.count == 2)
            let head = try client.request("HEAD", "\(path)?after=2")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            // Nothing was acknowledged: both events are still queued.
            #expect(try client.get("\(path)?wait=0").json?["events"]?.arrayValue?.count == 2)
            // The HEAD's length is the one a GET with the same `after` gets (which acknowledges them).
            let get = try client.get("\(path)?after=2&wait=0")
            #expect(get.json?["events"] == [])
            #expect(head.header("Content-Length") == String(get.body.count))
            // A waiting poll is not released by a HEAD (without `wait`, which a GET would wait on).
            let waiter = try startPoll(server, id, query: "after=2&wait=30")
            #expect(waitUntil { waiting(server) == 1 })
            #expect(try server.client().request("HEAD", path).status == 200)
            #expect(waiting(server) == 1)
            _ = try client.post("/v1/events/emit", ["loc": "/seek/3"])
            #expect(try waiter.readResponse().json?["events"]?.arrayValue?.first?["seq"] == 3)
            #expect(try client.request("HEAD", "/v1/events/subscriptions/nope").status == 404)
        }
    }

    @Test func disconnectedWaitersAreFreedAtTheirDeadline() throws {
        try withServer { (server) throws in
            let client = server.client()
            // Subscribed first, so the 50 polls start close together: each must still be waiting when the last one
            // is (a poll's deadline of 1 s was shorter than 50 subscriptions and polls take under ThreadSanitizer).
            let ids = try (0..<50).map { _ in try subscribe(client).id }
            for id in ids { try startPoll(server, id, query: "wait=5").disconnect() }
            #expect(waitUntil { waiting(server) == 50 })
            #expect(
                waitUntil(timeout: .seconds(30)) {
                    waiting(server) == 0 && server.application.daemon.suspendedConnections == 0
                })
            #expect(try client.get("/healthz").status == 200)
        }
    }

    @Test func deletingASubscriptionAnswersItsWaitingPoll() throws {
        try withServer { (server) throws in
            let (id, _) = try subscribe(server.client())
            let poller = try startPoll(server, id)
            #expect(waitUntil { waiting(server) == 1 })
            #expect(try server.client().request("DELETE", "/v1/events/subscriptions/\(id)").status == 204)
            #expect(try poller.readResponse().json?["events"] == [])
        }
    }

    @Test func unpolledSubscriptionsExpire() throws {
        try withServer { (server) throws in
            let client = server.client()
            let (id, _) = try subscribe(client, ["events": [["path": "/e"]], "ttl": 1])
            // Polling would keep it alive, so watch the bus, then check the API agrees.
            #expect(waitUntil { server.application.events.bus.subscriptionCount == 0 })
            #expect(try client.get("/v1/events/subscriptions/\(id)?wait=0").errorCode == "subscription_not_found")
        }
    }

    @Test func stoppingAnswersWaitingPolls() throws {
        let server = try TestServer()
        let (id, _) = try subscribe(server.client())
        let poller = try startPoll(server, id)
        #expect(waitUntil { waiting(server) == 1 })
        server.stop()
        let answer = try poller.readResponse()
        #expect(answer.status == 200)
        #expect(answer.json?["events"] == [])
    }

    @Test func eventTypesAndNamesSurviveARestart() throws {
        let dataDir = TestServer.temporaryDirectory()
        try withServer(dataDir: dataDir) { (server) throws in
            _ = try subscribe(server.client())
            _ = try subscribe(server.client(), ["events": [["path": "/plain/*rest"]]])
        }
        try withServer(dataDir: dataDir) { (server) throws in
            let client = server.client()
            #expect(
                try client.get("/v1/events").json
                    == [
                        "events": .array(
                            Self.builtIn + [
                                ["pattern": "/seek/:progress", "name": "onSeekProgress"],
                                ["pattern": "/plain/*rest", "name": nil],
                            ])
                    ])
            #expect(
                try client.post("/v1/events/emit", ["name": "onSeekProgress", "params": ["progress": "1"]]).status
                    == 200)
        }
    }

    @Test func emitNeedsTheAdminTokenAndPollsDoNot() throws {
        try withServer({ $0.adminToken = "admin" }) { (server) throws in
            let client = server.client()
            let (id, _) = try subscribe(client, ["events": [["name": "slotChanged"]]])
            _ = try client.post(
                "/v1/events", ["path": "/seek/:progress"], headers: ["Authorization": "Bearer admin"])
            #expect(try client.post("/v1/events/emit", ["loc": "/seek/1"]).status == 401)
            #expect(
                try client.post("/v1/events/emit", ["loc": "/seek/1"], headers: ["Authorization": "Bearer admin"])
                    .status
                    == 200)
            #expect(try client.get("/v1/events/subscriptions/\(id)?wait=0").status == 200)
        }
    }
}
