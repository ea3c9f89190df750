import Foundation
import LinkCore
import Testing

@testable import LinkServer

#if canImport(Glibc)
    import Glibc
#endif

/// API.md §5 as revised: who may create and delete event types, `missed` across a lost answer, and `seq` across
/// restarts, against the real daemon.
@Suite struct EventTypeEndpointTests {
    static let admin = ["Authorization": "Bearer admin"]

    @Test func typesAreRegisteredAndRemovedExplicitly() throws {
        try withServer { (server) throws in
            let client = server.client()
            let created = try client.post("/v1/events", ["path": "/seek/:progress", "name": "seek"])
            #expect(created.status == 201)
            #expect(created.json == ["pattern": "/seek/:progress", "name": "seek"])
            // The same again (parameter names may differ): 200, nothing changes.
            let again = try client.post("/v1/events", ["path": "/seek/:p", "name": "seek"])
            #expect(again.status == 200)
            #expect(again.json == ["pattern": "/seek/:progress", "name": "seek"])
            #expect(try client.post("/v1/events", ["path": "/other", "name": "seek"]).errorCode == "name_conflict")
            #expect(try client.post("/v1/events", ["path": "/x", "name": "linkClick"]).errorCode == "name_conflict")
            #expect(try client.post("/v1/events", ["name": "seek"]).errorCode == "invalid_request")
            #expect(try client.post("/v1/events", ["path": "/x", "extra": 1]).errorCode == "invalid_request")
            #expect(try client.post("/v1/events", ["path": "/x/:a/:a"]).errorCode == "invalid_pattern")
            #expect(try client.post("/v1/events", ["path": "/plain"]).status == 201)

            let (id, _) = try subscribe(client, [["name": "seek"], ["path": "/plain"]])
            #expect(try client.request("DELETE", "/v1/events/seek").status == 204)
            #expect(try client.request("DELETE", "/v1/events/seek").errorCode == "unknown_name")
            #expect(try client.post("/v1/events/emit", ["loc": "/seek/1"]).errorCode == "no_match")
            #expect(try client.request("DELETE", "/v1/events?pattern=/plain").status == 204)
            #expect(try client.request("DELETE", "/v1/events?pattern=/plain").errorCode == "no_match")
            #expect(try client.request("DELETE", "/v1/events").errorCode == "invalid_request")
            #expect(try client.request("DELETE", "/v1/events?pattern=/a/:x:y").errorCode == "invalid_pattern")
            // Built-in types stay.
            let builtIn = try client.request("DELETE", "/v1/events/linkClick")
            #expect(builtIn.status == 409)
            #expect(builtIn.errorCode == "read_only")
            #expect(try client.request("DELETE", "/v1/events?pattern=/slots/:s").errorCode == "read_only")
            #expect(try client.get("/v1/events").json == ["events": .array(EventEndpointTests.builtIn)])
            // The subscription no longer receives the removed types; its name can be bound again.
            #expect(try client.post("/v1/events", ["path": "/seek/:p", "name": "seek"]).status == 201)
            #expect(try client.post("/v1/events/emit", ["loc": "/seek/1"]).json?["delivered"] == 0)
            #expect(try client.get("/v1/events/subscriptions/\(id)?wait=0").json?["events"] == [])
        }
    }

    /// A refused subscription registers nothing, now or after a restart (its types had been stored before the
    /// subscription was refused, and came back with the next start).
    @Test func aRefusedSubscriptionRegistersNoType() throws {
        let dataDir = TestServer.temporaryDirectory()
        let listed = try withServer(dataDir: dataDir, { $0.maxSubscriptions = 1 }) { (server) throws -> JSONValue? in
            let client = server.client()
            #expect(try client.post("/v1/events", ["path": "/unnamed"]).status == 201)
            let before = try client.get("/v1/events").json
            _ = try subscribe(client, [["path": "/first"]])
            // A new type and a name for an existing one, refused with the subscription.
            let refused = try client.post(
                "/v1/events/subscriptions", ["events": [["path": "/refused"], ["path": "/unnamed", "name": "named"]]])
            #expect(refused.status == 429)
            #expect(refused.errorCode == "too_many_subscriptions")
            let after = try client.get("/v1/events").json
            let patterns = after?["events"]?.arrayValue?.compactMap { $0["pattern"]?.stringValue } ?? []
            #expect(patterns.contains("/first") && !patterns.contains("/refused"))
            let unnamed = after?["events"]?.arrayValue?.first { $0["pattern"] == "/unnamed" }
            #expect(unnamed != nil && unnamed?["name"] != "named")
            #expect(before?["events"]?.arrayValue?.count == patterns.count - 1)
            return after
        }
        try withServer(dataDir: dataDir) { (server) throws in
            #expect(try server.client().get("/v1/events").json == listed)
        }
    }

    @Test func withAnAdminTokenOnlyTheAdminCreatesTypes() throws {
        try withServer({ $0.adminToken = "admin" }) { (server) throws in
            let client = server.client()
            // A subscribe that would create a type (a new pattern or a new name) needs the token …
            let squat = try client.post("/v1/events/subscriptions", ["events": [["path": "/seek/:p", "name": "seek"]]])
            #expect(squat.status == 401)
            #expect(squat.header("WWW-Authenticate") == "Bearer")
            // … and registers nothing.
            #expect(try client.get("/v1/events").json == ["events": .array(EventEndpointTests.builtIn)])
            #expect(try client.post("/v1/events", ["path": "/seek/:p"]).status == 401)
            #expect(try client.post("/v1/events", ["path": "/seek/:p"], headers: Self.admin).status == 201)
            // Binding a new name to an existing type is a write too.
            #expect(try subscribeStatus(client, [["path": "/seek/:p", "name": "seek"]]) == 401)
            // Existing types (and the built-ins) are open to subscribe to.
            #expect(try subscribeStatus(client, [["path": "/seek/:x"], ["name": "slotChanged"]]) == 201)
            #expect(try subscribeStatus(client, [["path": "/new"]], headers: Self.admin) == 201)
            #expect(try client.request("DELETE", "/v1/events?pattern=/new").status == 401)
            #expect(try client.request("DELETE", "/v1/events?pattern=/new", headers: Self.admin).status == 204)
        }
    }

    /// §5: types registered with `POST /v1/events` are kept with their names across restarts, and so are their
    /// removals: a removed type does not come back, and its name can be bound again after the restart.
    @Test func explicitTypesAndTheirRemovalsSurviveARestart() throws {
        let dataDir = TestServer.temporaryDirectory()
        try withServer(dataDir: dataDir) { (server) throws in
            let client = server.client()
            #expect(try client.post("/v1/events", ["path": "/kept/:k", "name": "kept"]).status == 201)
            #expect(try client.post("/v1/events", ["path": "/gone/:g", "name": "gone"]).status == 201)
            #expect(try client.post("/v1/events", ["path": "/unnamed"]).status == 201)
            #expect(try client.post("/v1/events", ["path": "/removed"]).status == 201)
            #expect(try client.request("DELETE", "/v1/events/gone").status == 204)
            #expect(try client.request("DELETE", "/v1/events?pattern=/removed").status == 204)
        }
        try withServer(dataDir: dataDir) { (server) throws in
            let client = server.client()
            #expect(
                try client.get("/v1/events").json
                    == [
                        "events": .array(
                            EventEndpointTests.builtIn + [
                                ["pattern": "/kept/:k", "name": "kept"], ["pattern": "/unnamed", "name": nil],
                            ])
                    ])
            #expect(try client.post("/v1/events/emit", ["loc": "/gone/1"]).errorCode == "no_match")
            #expect(try client.post("/v1/events/emit", ["loc": "/removed"]).errorCode == "no_match")
            #expect(try client.post("/v1/events/emit", ["name": "kept", "params": ["k": "1"]]).status == 200)
            #expect(try client.post("/v1/events", ["path": "/other", "name": "gone"]).status == 201)
        }
    }

    /// §5: without the admin token a subscribe "may use existing types only": an entry that names an existing type
    /// exactly as it is (its pattern and its own name) creates nothing and is open; a request that mixes an
    /// existing type with a new one is refused whole, registering nothing; the read token, when set, may use
    /// existing types but not create one.
    @Test func withoutTheAdminTokenASubscribeUsesExistingTypesOnly() throws {
        try withServer({
            $0.adminToken = "admin"
            $0.readToken = "reader"
        }) { (server) throws in
            let client = server.client()
            let reader = ["Authorization": "Bearer reader"]
            #expect(
                try client.post("/v1/events", ["path": "/seek/:p", "name": "seek"], headers: Self.admin).status == 201)
            #expect(try subscribeStatus(client, [["path": "/seek/:p", "name": "seek"]], headers: reader) == 201)
            #expect(try subscribeStatus(client, [["name": "seek"]], headers: reader) == 201)
            #expect(try client.post("/v1/events", ["path": "/unnamed"], headers: Self.admin).status == 201)
            #expect(try subscribeStatus(client, [["path": "/unnamed"]], headers: reader) == 201)
            let before = try client.get("/v1/events", headers: reader).json
            let mixed = try client.post(
                "/v1/events/subscriptions", ["events": [["name": "seek"], ["path": "/new"]]], headers: reader)
            #expect(mixed.status == 401)
            #expect(mixed.errorCode == "unauthorized")
            #expect(try subscribeStatus(client, [["path": "/unnamed", "name": "named"]], headers: reader) == 401)
            #expect(try client.get("/v1/events", headers: reader).json == before)
            // No token at all is refused before anything else when a read token is set.
            #expect(try subscribeStatus(client, [["name": "seek"]]) == 401)
            #expect(try subscribeStatus(client, [["path": "/new"]], headers: Self.admin) == 201)
        }
    }

    @Test func missedSurvivesALostAnswer() throws {
        try withServer({ $0.eventsQueueLimit = 2 }) { (server) throws in
            let client = server.client()
            let (id, _) = try subscribe(client, [["path": "/e"]])
            for _ in 0..<5 { #expect(try client.post("/v1/events/emit", ["loc": "/e"]).status == 200) }
            let lost = try client.get("/v1/events/subscriptions/\(id)?after=0&wait=0")
            #expect(lost.json?["missed"] == 3)
            // The answer never reached the client: its retry with the same cursor hears of the drops again.
            let retry = try client.get("/v1/events/subscriptions/\(id)?after=0&wait=0")
            #expect(retry.json?["missed"] == 3)
            #expect(retry.json?["events"]?.arrayValue?.count == 2)
            let cursor = try #require(retry.json?["cursor"]?.intValue)
            let acknowledged = try client.get("/v1/events/subscriptions/\(id)?after=\(cursor)&wait=0")
            #expect(acknowledged.json?["missed"] == 0)
            #expect(acknowledged.json?["events"] == [])
        }
    }

    @Test func seqNeverRestartsAfterACleanRestartOrAKill() throws {
        let dataDir = TestServer.temporaryDirectory()
        let last = try withServer(dataDir: dataDir) { (server) throws -> Int in
            let client = server.client()
            #expect(try client.post("/v1/events", ["path": "/e"]).status == 201)
            var seq = 0
            for _ in 0..<3 {
                seq = try #require(try client.post("/v1/events/emit", ["loc": "/e"]).json?["seq"]?.intValue)
            }
            return seq
        }
        let arguments = ["--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", "/nonexistent.json"]
        let process = try ServerProcess(arguments: arguments)
        let client = HTTPClient(port: try process.waitUntilListening())
        let (_, cursor) = try subscribe(client, [["path": "/e"]])
        #expect(cursor >= last)
        let afterRestart = try #require(try client.post("/v1/events/emit", ["loc": "/e"]).json?["seq"]?.intValue)
        #expect(afterRestart > last)
        process.signal(SIGKILL)
        _ = try process.waitForExit()
        try withServer(dataDir: dataDir) { (server) throws in
            let afterKill = try #require(
                try server.client().post("/v1/events/emit", ["loc": "/e"]).json?["seq"]?.intValue)
            #expect(afterKill > afterRestart)
        }
    }

    private func subscribe(_ client: HTTPClient, _ events: JSONValue) throws -> (id: String, cursor: Int) {
        let reply = try client.post("/v1/events/subscriptions", ["events": events])
        #expect(reply.status == 201)
        return (try #require(reply.json?["id"]?.stringValue), try #require(reply.json?["cursor"]?.intValue))
    }

    private func subscribeStatus(_ client: HTTPClient, _ events: JSONValue, headers: [String: String] = [:]) throws
        -> Int
    {
        try client.post("/v1/events/subscriptions", ["events": events], headers: headers).status
    }
}
