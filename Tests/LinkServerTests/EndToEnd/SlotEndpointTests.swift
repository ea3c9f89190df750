import Foundation
import LinkCore
import Synchronization
import Testing

@testable import LinkServer

#if canImport(Glibc)
    import Glibc
#endif

/// `/v1/slots…` (API.md §11) against the real daemon: the priority rule, validation, tokens, contention, live
/// events, expiry without requests, and durability.
@Suite struct SlotEndpointTests {
    static let admin = ["Authorization": "Bearer admin"]

    private func present(
        _ client: HTTPClient, _ slot: String, _ id: String, _ priority: JSONValue, payload: JSONValue = "p",
        ttl: Int? = nil, headers: [String: String] = [:]
    ) throws -> HTTPClient.Reply {
        var body: JSONObject = ["id": .string(id), "priority": priority, "payload": payload]
        if let ttl { body["ttl"] = .int(ttl) }
        return try client.post("/v1/slots/\(slot)/present", .object(body), headers: headers)
    }

    @Test func theHigherPriorityShowsAndTheSameIdUpdates() throws {
        try withServer { (server) throws in
            let client = server.client()
            #expect(try client.get("/v1/slots/home").json == ["current": nil])
            let first = try present(client, "home", "promo", 5, payload: ["title": "Spring"])
            #expect(first.status == 200)
            #expect(first.json == ["presented": true, "replaced": nil])
            let shown = try #require(try client.get("/v1/slots/home").json?["current"])
            #expect(shown["id"] == "promo")
            #expect(shown["priority"] == 5)
            #expect(shown["payload"] == ["title": "Spring"])
            let since = try #require(shown["since"]?.stringValue)
            let expires = try #require(shown["expires"]?.stringValue)
            #expect(since.hasSuffix("Z") && expires > since)

            #expect(
                try present(client, "home", "survey", 5).json == [
                    "presented": false, "current": ["id": "promo", "priority": 5],
                ])
            #expect(try present(client, "home", "low", -3).json?["presented"] == false)
            #expect(
                try present(client, "home", "outage", 9).json
                    == ["presented": true, "replaced": ["id": "promo", "priority": 5]])
            // Its own sender updates it, even to a lower priority; `since` stays.
            let before = try #require(try client.get("/v1/slots/home").json?["current"]?["since"])
            #expect(
                try present(client, "home", "outage", 1, payload: "v2").json == ["presented": true, "replaced": nil])
            let updated = try #require(try client.get("/v1/slots/home").json?["current"])
            #expect(updated["priority"] == 1)
            #expect(updated["payload"] == "v2")
            #expect(updated["since"] == before)

            let wrong = try client.request("DELETE", "/v1/slots/home/present/promo")
            #expect(wrong.status == 404)
            #expect(wrong.errorCode == "not_current")
            #expect(try client.request("DELETE", "/v1/slots/home/present/outage").status == 204)
            #expect(try client.get("/v1/slots/home").json == ["current": nil])
            #expect(try client.request("DELETE", "/v1/slots/home/present/outage").errorCode == "not_current")
            // Slots are independent.
            #expect(try present(client, "other", "promo", 0).json?["presented"] == true)
            #expect(try client.get("/v1/slots/home").json == ["current": nil])
        }
    }

    @Test func badInputIsRefused() throws {
        try withServer { (server) throws in
            let client = server.client()
            let priorities: [JSONValue] = [1.5, "10", true, nil, ["a": 1]]
            for priority in priorities {
                let reply = try present(client, "s", "a", priority)
                #expect(reply.status == 400, "\(priority)")
                #expect(reply.errorCode == "invalid_request", "\(priority)")
            }
            #expect(try client.post("/v1/slots/s/present", ["id": "a"]).errorCode == "invalid_request")
            #expect(try client.post("/v1/slots/s/present", ["priority": 1]).errorCode == "invalid_request")
            #expect(
                try client.post("/v1/slots/s/present", ["id": "a", "priority": 1, "colour": "red"]).errorCode
                    == "invalid_request")
            for ttl in [0, 86_401] {
                #expect(try present(client, "s", "a", 1, ttl: ttl).errorCode == "invalid_request")
            }
            for id in ["", "a b", String(repeating: "x", count: 129), "é"] {
                #expect(try present(client, "s", id, 1).errorCode == "invalid_request", "\(id)")
            }
            for slot in ["a%20b", String(repeating: "x", count: 129), "%C3%A9"] {
                #expect(try present(client, slot, "a", 1).errorCode == "invalid_request", "\(slot)")
                #expect(try client.get("/v1/slots/\(slot)").errorCode == "invalid_request", "\(slot)")
            }
            #expect(try client.request("DELETE", "/v1/slots/s/present/a%20b").errorCode == "invalid_request")
            let huge = try client.request(
                "POST", "/v1/slots/s/present", body: Array(#"{"id": "a", "priority": 9223372036854775808}"#.utf8))
            #expect(huge.status == 400)
            #expect(try present(client, "s", "max", .int(Int.max)).json?["presented"] == true)
            #expect(try present(client, "s", "min", .int(Int.min)).json?["presented"] == false)
            #expect(try client.get("/v1/slots/s").json?["current"]?["id"] == "max")
        }
    }

    @Test func presentNeedsTheAdminTokenAndDismissTheReadToken() throws {
        try withServer({
            $0.adminToken = "admin"
            $0.readToken = "reader"
        }) { (server) throws in
            let client = server.client()
            #expect(try present(client, "s", "a", 1).status == 401)
            #expect(try present(client, "s", "a", 1, headers: ["Authorization": "Bearer reader"]).status == 401)
            #expect(try present(client, "s", "a", 1, headers: Self.admin).status == 200)
            #expect(try client.get("/v1/slots/s").status == 401)
            #expect(try client.get("/v1/slots/s", headers: ["Authorization": "Bearer reader"]).status == 200)
            #expect(try client.request("DELETE", "/v1/slots/s/present/a").status == 401)
            #expect(
                try client.request("DELETE", "/v1/slots/s/present/a", headers: ["Authorization": "Bearer reader"])
                    .status == 204)
        }
    }

    /// 200 senders at once: the highest priority ends up showing, and the answers replay as one serial order.
    @Test func concurrentPresentsAreOneSerialOrder() throws {
        try withServer({ $0.server.threads = 4 }) { (server) throws in
            let port = server.port
            let answers = Mutex<[(priority: Int, json: JSONValue)]>([])
            let failures = Mutex<[String]>([])
            let priorities = Array(0..<200).shuffled()
            let group = DispatchGroup()
            for chunk in stride(from: 0, to: priorities.count, by: 25) {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    let client = HTTPClient(port: port)
                    for priority in priorities[chunk..<min(chunk + 25, priorities.count)] {
                        do {
                            let reply = try client.post(
                                "/v1/slots/race/present", ["id": .string("p\(priority)"), "priority": .int(priority)])
                            guard reply.status == 200, let json = reply.json else {
                                failures.withLock { $0.append("status \(reply.status)") }
                                continue
                            }
                            answers.withLock { $0.append((priority, json)) }
                        } catch {
                            failures.withLock { $0.append("\(error)") }
                        }
                    }
                }
            }
            group.wait()
            #expect(failures.withLock { $0 } == [])
            let all = answers.withLock { $0 }
            #expect(all.count == 200)
            #expect(try server.client().get("/v1/slots/race").json?["current"]?["id"] == "p199")
            // Each accepted present replaced the previously accepted one: sorted by priority they form a chain.
            let accepted = all.filter { $0.json["presented"] == true }.sorted { $0.priority < $1.priority }
            #expect(accepted.first?.json["replaced"] == .null)
            for (previous, next) in zip(accepted, accepted.dropFirst()) {
                #expect(
                    next.json["replaced"] == [
                        "id": .string("p\(previous.priority)"), "priority": .int(previous.priority),
                    ])
            }
            #expect(accepted.last?.priority == 199)
            // Each refusal names a current presentation at least as high, one that was accepted.
            let acceptedIDs = Set(accepted.map { "p\($0.priority)" })
            for refused in all where refused.json["presented"] == false {
                let current = try #require(refused.json["current"]?["priority"]?.intValue)
                #expect(current >= refused.priority)
                #expect(acceptedIDs.contains(refused.json["current"]?["id"]?.stringValue ?? ""))
            }
        }
    }

    @Test func everyChangeIsASlotChangedEventAndExpiryNeedsNoRequest() throws {
        try withServer { (server) throws in
            let client = server.client()
            let subscribed = try client.post("/v1/events/subscriptions", ["events": [["path": "/slots/device-42"]]])
            let id = try #require(subscribed.json?["id"]?.stringValue)
            _ = try present(client, "device-42", "a", 1)
            // 3 s: the next present and poll must come before it ends, on a loaded machine and under ThreadSanitizer.
            _ = try present(client, "device-42", "b", 2, ttl: 3)
            _ = try present(client, "elsewhere", "x", 1)
            let polled = try client.get("/v1/events/subscriptions/\(id)?wait=0")
            let events = try #require(polled.json?["events"]?.arrayValue)
            #expect(events.map { $0["extra"]?["reason"] } == ["presented", "replaced"])
            // The device's own pattern is the best match (§5), so the events carry it rather than the built-in one.
            #expect(events.map { $0["pattern"] } == ["/slots/device-42", "/slots/device-42"])
            #expect(events[1]["extra"]?["current"]?["id"] == "b")
            #expect(events[1]["extra"]?["replaced"]?["id"] == "a")
            #expect(events[0]["extra"]?["replaced"] == .null)
            let cursor = try #require(polled.json?["cursor"]?.intValue)
            // "b" ends after 3 s with nobody asking: the waiting poll is woken by the expiry, not by its timeout.
            let started = ContinuousClock.now
            let expired = try client.get("/v1/events/subscriptions/\(id)?after=\(cursor)&wait=30")
            #expect(ContinuousClock.now - started < .seconds(25))
            let event = try #require(expired.json?["events"]?.arrayValue?.first)
            #expect(
                event["extra"] == [
                    "current": nil, "replaced": events[1]["extra"]?["current"] ?? .null, "reason": "expired",
                ])
            #expect(try client.get("/v1/slots/device-42").json == ["current": nil])
            // A dismiss is an event too.
            _ = try present(client, "device-42", "c", 1)
            #expect(try client.request("DELETE", "/v1/slots/device-42/present/c").status == 204)
            let next = try client.get(
                "/v1/events/subscriptions/\(id)?after=\(try #require(expired.json?["cursor"]?.intValue))&wait=0")
            #expect(next.json?["events"]?.arrayValue?.map { $0["extra"]?["reason"] } == ["presented", "dismissed"])
        }
    }

    @Test func slotsSurviveKill9AndWhatExpiredMeanwhileIsEmptiedAtStart() throws {
        let dataDir = TestServer.temporaryDirectory()
        let arguments = ["--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", "/nonexistent.json"]
        let process = try ServerProcess(arguments: arguments)
        let client = HTTPClient(port: try process.waitUntilListening())
        for priority in 0..<50 {
            #expect(try present(client, "kept", "p\(priority)", .int(priority)).status == 200)
        }
        // 3 s: it must still be current when read back and killed (on a loaded machine, under ThreadSanitizer).
        #expect(try present(client, "brief", "b", 1, ttl: 3).status == 200)
        let expires = try #require(try client.get("/v1/slots/brief").json?["current"]?["expires"]?.stringValue)
        process.signal(SIGKILL)
        _ = try process.waitForExit()
        // Wait (on the wall clock) until "brief" is over while the service is down.
        #expect(waitUntil { WallClock.rfc3339Now() > expires })
        try withServer(dataDir: dataDir) { (server) throws in
            let client = server.client()
            #expect(try client.get("/v1/slots/kept").json?["current"]?["id"] == "p49")
            #expect(try client.get("/v1/slots/brief").json == ["current": nil])
            let metrics = String(decoding: try client.get("/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"linkserver_slot_changes_total{outcome="expired"} 1"#))
        }
    }
}

extension SlotEndpointTests {
    /// The seconds from `since` to `expires` of a slot's current presentation.
    private func shownFor(_ client: HTTPClient, _ slot: String) throws -> Double {
        let current = try #require(try client.get("/v1/slots/\(slot)").json?["current"])
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let sinceText = try #require(current["since"]?.stringValue)
        let expiresText = try #require(current["expires"]?.stringValue)
        let since = try #require(formatter.date(from: sinceText))
        let expires = try #require(formatter.date(from: expiresText))
        return expires.timeIntervalSince(since)
    }

    /// §11: a presentation ends after `ttl` seconds, 1–86400, default 3600.
    @Test func ttlDefaultsTo3600AndTakesItsWholeRange() throws {
        try withServer { (server) throws in
            let client = server.client()
            #expect(try present(client, "default", "a", 1).status == 200)
            #expect(try shownFor(client, "default") == 3600)
            #expect(try present(client, "longest", "a", 1, ttl: 86400).status == 200)
            #expect(try shownFor(client, "longest") == 86400)
            #expect(try present(client, "shortest", "a", 1, ttl: 1).status == 200)
            #expect(try present(client, "shortest", "a", 1, ttl: 1).json?["presented"] == true)
        }
    }

    /// §11: "an acknowledged present or dismiss survives `kill -9`".
    @Test func anAcknowledgedDismissSurvivesKill9() throws {
        let dataDir = TestServer.temporaryDirectory()
        let arguments = ["--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", "/nonexistent.json"]
        let process = try ServerProcess(arguments: arguments)
        let client = HTTPClient(port: try process.waitUntilListening())
        for slot in 0..<20 {
            #expect(try present(client, "s\(slot)", "shown", 1).status == 200)
            if slot % 2 == 0 {
                #expect(try client.request("DELETE", "/v1/slots/s\(slot)/present/shown").status == 204)
            }
        }
        process.signal(SIGKILL)
        _ = try process.waitForExit()
        try withServer(dataDir: dataDir) { (server) throws in
            let client = server.client()
            for slot in 0..<20 {
                let answer = try client.get("/v1/slots/s\(slot)").json
                if slot % 2 == 0 {
                    #expect(answer == ["current": nil], "slot s\(slot)")
                } else {
                    #expect(answer?["current"]?["id"] == "shown", "slot s\(slot)")
                }
            }
        }
    }

    @Test func theBuiltInTypeCarriesTheSlotName() throws {
        try withServer({ $0.adminToken = "admin" }) { (server) throws in
            let client = server.client()
            // Subscribing by the built-in name needs no token: the type exists from the start.
            let subscribed = try client.post("/v1/events/subscriptions", ["events": [["name": "slotChanged"]]])
            let id = try #require(subscribed.json?["id"]?.stringValue)
            _ = try present(client, "tv:living-room", "a", 1, headers: Self.admin)
            let event = try #require(
                try client.get("/v1/events/subscriptions/\(id)?wait=0").json?["events"]?.arrayValue?.first)
            #expect(event["name"] == "slotChanged")
            #expect(event["pattern"] == "/slots/:slot")
            #expect(event["params"] == ["slot": "tv:living-room"])
            #expect(event["extra"]?["reason"] == "presented")
        }
    }
}
