import Foundation
import LinkCore
import Testing

@testable import LinkServer

#if canImport(Glibc)
    import Glibc
#endif

/// Resources survive a clean restart and a `kill -9`: every acknowledged write is on disk.
@Suite(.serialized) struct ResourceDurabilityTests {
    @Test func theStoreKeepsResourcesAndTheRevisionInOrder() throws {
        let directory = TestServer.temporaryDirectory()
        var registry = ResourceRegistry()
        do {
            let store = try SQLiteStore(directory: directory)
            #expect(try store.appliedMigrations().contains("resources-v1"))
            #expect(try store.loadResources().revision == 0)
            let bodies: [JSONValue] = [
                ["path": "/b/:x", "name": "b", "compute": ["var": "params.x"]],
                ["path": "/a", "value": ["n": 1.5, "s": "é\u{1}", "l": [nil, true]]],
                ["path": "/c", "name": "c", "value": nil],
                ["path": "/b/:y", "name": "bee", "value": 0, "onExists": "keep"],
            ]
            for body in bodies {
                let outcome = try registry.creating(ResourceCreation(json: body))
                try store.saveResourceChange(outcome.change, revision: outcome.registry.revision)
                registry = outcome.registry
            }
            let removed = try registry.deleting(.name("c"))
            try store.saveResourceChange(removed.change, revision: removed.registry.revision)
            registry = removed.registry
            try store.close()
        }
        let reopened = try SQLiteStore(directory: directory)
        defer { try? reopened.close() }
        let loaded = try reopened.loadResources()
        #expect(loaded.revision == 5)
        #expect(loaded.resources == registry.resources)
        #expect(loaded.resources.map(\.pattern.description) == ["/b/:x", "/a"])
        #expect(loaded.resources.map(\.name) == ["bee", nil])
    }

    @Test func resourcesSurviveARestart() throws {
        let dataDir = TestServer.temporaryDirectory()
        let before = try withServer(dataDir: dataDir) { server throws in
            let client = server.client()
            #expect(try client.post("/v1/resources", ["path": "/one", "name": "one", "value": 1]).status == 201)
            #expect(
                try client.post("/v1/resources", ["path": "/u/:id", "compute": ["cat": ["u", ["var": "params.id"]]]])
                    .status == 201)
            #expect(try client.post("/v1/resources", ["path": "/gone", "value": 0]).status == 201)
            #expect(
                try client.request("PATCH", "/v1/resources", json: ["name": "one", "value": [1, 2]]).status == 200)
            #expect(try client.request("DELETE", "/v1/resources?path=/gone").status == 204)
            return try client.get("/v1/resources")
        }
        #expect(before.header("ETag") == #""5""#)
        try withServer(dataDir: dataDir) { server throws in
            let client = server.client()
            let after = try client.get("/v1/resources")
            #expect(after.json == before.json)
            #expect(after.header("ETag") == #""5""#)
            #expect(try client.get("/v1/resources?name=one").json?["value"] == [1, 2])
            #expect(try client.get("/v1/resources?loc=/u/7").json?["value"] == "u7")
            #expect(try client.get("/v1/resources?loc=/gone").errorCode == "no_match")
            let next = try client.post("/v1/resources", ["path": "/two", "value": 2])
            #expect(next.json?["revision"] == 6)
        }
    }

    /// Every write answered 2xx before a SIGKILL is there after a restart, with its revision.
    @Test func acknowledgedWritesSurviveKill9() throws {
        let dataDir = TestServer.temporaryDirectory()
        let arguments = ["--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", "/nonexistent.json"]
        var expected: [String: JSONValue] = [:]
        var order: [String] = []
        var revision = 0
        do {
            let server = try ServerProcess(arguments: arguments)
            let client = HTTPClient(port: try server.waitUntilListening())
            for index in 0..<60 {
                let path = "/k/\(index % 25)"
                let reply: HTTPClient.Reply
                switch index {
                case 0..<25:
                    reply = try client.post("/v1/resources", ["path": .string(path), "value": .int(index)])
                    #expect(reply.status == 201)
                    order.append(path)
                case 25..<50 where index % 5 == 0:
                    reply = try client.request("DELETE", "/v1/resources?path=\(path)")
                    #expect(reply.status == 204)
                    expected[path] = nil
                    order.removeAll { $0 == path }
                    revision += 1
                    continue
                default:
                    reply = try client.request(
                        "PATCH", "/v1/resources", json: ["path": .string(path), "value": ["step": .int(index)]])
                    if reply.status == 404 { continue }
                    #expect(reply.status == 200)
                }
                let item = try #require(reply.json)
                revision += 1
                #expect(item["revision"] == .int(revision))
                expected[path] = item
            }
            server.signal(SIGKILL)
            _ = try server.waitForExit()
        }
        let restarted = try ServerProcess(arguments: arguments)
        let client = HTTPClient(port: try restarted.waitUntilListening())
        let list = try client.get("/v1/resources")
        #expect(list.header("ETag") == "\"\(revision)\"")
        #expect(list.json?["resources"]?.arrayValue == order.map { expected[$0]! })
        for (path, item) in expected {
            let read = try client.get("/v1/resources?loc=\(path)")
            #expect(read.json?["value"] == item["value"])
            #expect(read.header("ETag") == "\"\(item["revision"]!)\"")
        }
        restarted.signal(SIGTERM)
        #expect(try restarted.waitForExit() == 0)
    }
}
