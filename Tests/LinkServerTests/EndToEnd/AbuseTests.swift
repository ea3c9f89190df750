import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// Hostile or broken clients get a 4xx or a closed connection, never a crash or a stuck worker; the server keeps
/// answering everyone else.
@Suite struct AbuseTests {
    /// Sends `bytes` on a fresh connection and returns the status of the answer, or `nil` if the server closed it.
    private func send(_ server: TestServer, _ bytes: [UInt8]) throws -> Int? {
        let client = server.client()
        try client.connect(timeoutSeconds: 10)
        try? client.sendRaw(bytes)
        do {
            return try client.readResponse().status
        } catch {
            return nil
        }
    }

    /// A 4xx (or 505 for an HTTP version the server does not speak), or a closed connection.
    private func expectRefused(_ status: Int?, _ what: String) {
        if let status {
            #expect((400..<500).contains(status) || status == 505, "\(what): got \(status)")
        }
    }

    private func expectHealthy(_ server: TestServer) throws {
        #expect(try server.client().get("/healthz").status == 200)
    }

    @Test func garbageOnTheSocket() throws {
        // Incomplete garbage is closed by the idle timeout, kept short here.
        try withServer({ $0.server.connectionTimeout = 1 }) { (server) throws in
            expectRefused(try send(server, Array("\u{0}\u{1}\u{2} garbage\r\n\r\n".utf8)), "garbage")
            expectRefused(try send(server, (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }), "binary noise")
            expectRefused(try send(server, Array("GET\r\n\r\n".utf8)), "no target")
            expectRefused(try send(server, Array("GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n".utf8)), "bad version")
            try expectHealthy(server)
        }
    }

    @Test func oversizedHeadersAreRefused() throws {
        try withServer { (server) throws in
            let header = "X-Big: " + String(repeating: "a", count: 200_000) + "\r\n"
            let status = try send(server, Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\(header)\r\n".utf8))
            expectRefused(status, "oversized header")
            let many = (0..<5000).map { "X-H\($0): v\r\n" }.joined()
            expectRefused(
                try send(server, Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\(many)\r\n".utf8)), "many headers")
            try expectHealthy(server)
        }
    }

    @Test func absurdContentLengths() throws {
        try withServer { (server) throws in
            for length in ["99999999999999999999999", "-5", "abc", "1, 2"] {
                let status = try send(
                    server,
                    Array("POST /v1/rules/evaluate HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n{}".utf8))
                expectRefused(status, "Content-Length \(length)")
            }
            let both = try send(
                server,
                Array(
                    ("POST /v1/rules/evaluate HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "0\r\n\r\n").utf8))
            expectRefused(both, "Content-Length with chunked")
            try expectHealthy(server)
        }
    }

    @Test func hugeButLegalBodiesAreHandled() throws {
        try withServer { (server) throws in
            let elements = Array(repeating: "0", count: 400_000).joined(separator: ",")
            let body = #"{"rule": {"var": "a.0"}, "data": {"a": [\#(elements)]}}"#
            // A minute to answer: a debug build under ThreadSanitizer parses these slowly.
            let client = server.client()
            try client.connect(timeoutSeconds: 60)
            let reply = try client.request("POST", "/v1/rules/evaluate", body: Array(body.utf8))
            #expect(reply.status == 200)
            #expect(reply.json == ["result": 0])
            let wide = "{" + (0..<50_000).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}"
            let object = try client.request(
                "POST", "/v1/rules/evaluate", body: Array(#"{"rule": {"var": "k49999"}, "data": \#(wide)}"#.utf8))
            #expect(object.json == ["result": 49999])
        }
    }

    @Test func slowClientsAreDroppedByTheIdleTimeout() throws {
        try withServer({ $0.server.connectionTimeout = 1 }) { (server) throws in
            let slow = server.client()
            try slow.connect(timeoutSeconds: 15)
            try slow.sendRaw(Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8))
            // The server closes the half-sent request by itself (the read returns EOF long before 15 s).
            #expect(slow.serverClosed())
            try expectHealthy(server)
        }
    }

    @Test func manyIdleConnectionsDoNotStarveOthers() throws {
        try withServer { (server) throws in
            var idle: [HTTPClient] = []
            for _ in 0..<200 {
                let client = server.client()
                try client.connect()
                try client.sendRaw(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8))
                idle.append(client)
            }
            for _ in 0..<20 { try expectHealthy(server) }
            for client in idle { client.disconnect() }
        }
    }

    @Test func unknownMethodsAndHTTP10() throws {
        try withServer { (server) throws in
            let brew = try server.client().request("BREW", "/healthz")
            #expect(brew.status == 405)
            #expect(brew.errorCode == "method_not_allowed")
            #expect(brew.json?["error"]?["details"]?["method"] == "BREW")
            // A long method is repeated up to 64 bytes, not whole.
            let long = try server.client().request(String(repeating: "M", count: 4_000), "/healthz")
            #expect(long.status == 405)
            #expect(long.json?["error"]?["details"]?["method"] == .string(String(repeating: "M", count: 64) + "…"))
            #expect(long.body.count < 400)
            let client = server.client()
            try client.sendRaw(Array("GET /healthz HTTP/1.0\r\n\r\n".utf8))
            let reply = try client.readResponse()
            #expect(reply.status == 200)
            #expect(reply.json == ["status": "ok"])
        }
    }

    @Test func malformedTargets() throws {
        try withServer { (server) throws in
            let client = server.client()
            #expect(try client.get("/v1/resolve?url=%").errorCode == "invalid_url")
            #expect(try client.get("/v1/resolve?url=/a%00b").errorCode == "invalid_url")
            #expect(try client.get("/v1/routes/%FF").errorCode == "invalid_url")
            try expectHealthy(server)
        }
    }
}
