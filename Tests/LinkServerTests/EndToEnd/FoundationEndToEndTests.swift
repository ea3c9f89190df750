import LinkCore
import Testing

@testable import LinkServer

/// The real daemon on port 0, spoken to over TCP.
@Suite struct FoundationEndToEndTests {
    @Test func healthAndReadiness() throws {
        try withServer { (server) throws in
            let client = server.client()
            let health = try client.get("/healthz")
            #expect(health.status == 200)
            #expect(health.json == ["status": "ok"])
            #expect(health.header("Content-Type") == "application/json; charset=utf-8")
            #expect(try client.get("/readyz").status == 200)
        }
    }

    @Test func unknownEndpointIsNotFound() throws {
        try withServer { (server) throws in
            let reply = try server.client().get("/v1/nothing/here")
            #expect(reply.status == 404)
            #expect(reply.errorCode == "not_found")
            #expect(reply.json?["error"]?["message"]?.stringValue?.isEmpty == false)
        }
    }

    /// A path parameter that does not decode (a bad percent-escape, bytes that are not UTF-8, a control character)
    /// is a bad URL, 400 `invalid_url` (§1), not a missing endpoint: the endpoint exists. A path no template matches
    /// stays 404.
    @Test func anUndecodablePathParameterIsInvalidURL() throws {
        try withServer { (server) throws in
            let client = server.client()
            for (method, path) in [
                ("GET", "/v1/routes/%zz"), ("DELETE", "/v1/routes/%E6%B8"), ("GET", "/v1/routes/%FF"),
                ("POST", "/v1/slots/a%2/present"), ("DELETE", "/v1/events/subscriptions/%01"),
            ] {
                let reply = try client.request(method, path)
                #expect(reply.status == 400, "\(method) \(path)")
                #expect(reply.errorCode == "invalid_url", "\(method) \(path)")
                #expect(reply.json?["error"]?["details"]?["path"] == .string(path))
            }
            // The raw byte 0xFF, not percent-encoded.
            let raw = server.client()
            try raw.sendRaw(Array("GET /v1/routes/".utf8) + [0xFF] + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(try raw.readResponse().status == 400)
            #expect(try client.get("/v1/nothing/%zz").errorCode == "not_found")
        }
    }

    @Test func wrongMethodIsMethodNotAllowedWithAllow() throws {
        try withServer { (server) throws in
            let reply = try server.client().request("DELETE", "/healthz")
            #expect(reply.status == 405)
            #expect(reply.errorCode == "method_not_allowed")
            #expect(reply.header("Allow") == "GET, HEAD")
        }
    }

    @Test func headIsServedLikeGetWithoutBody() throws {
        try withServer { (server) throws in
            let reply = try server.client().request("HEAD", "/healthz")
            #expect(reply.status == 200)
            #expect(reply.body.isEmpty)
        }
    }

    @Test func connectionsAreKeptAlive() throws {
        try withServer { (server) throws in
            let client = server.client()
            for _ in 0..<5 {
                let reply = try client.get("/healthz")
                #expect(reply.status == 200)
                #expect(reply.header("Connection")?.lowercased() != "close")
            }
        }
    }

    /// One wording of a body's field errors, whichever endpoint reads the body (issue 11: one reader, JSONFields).
    @Test(arguments: [
        "/v1/resolve", "/v1/locate", "/v1/rules/evaluate", "/v1/routes", "/v1/resources", "/v1/events",
        "/v1/events/emit", "/v1/events/subscriptions", "/v1/slots/s/present", "/v1/links/opens", "/v1/deferred/claim",
    ])
    func anUnknownBodyFieldIsWordedTheSameEverywhere(path: String) throws {
        try withServer { (server) throws in
            let reply = try server.client().post(path, ["colour": "red"])
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_request")
            #expect(reply.json?["error"]?["message"] == "Unknown field 'colour'")
            #expect(reply.errorDetails?["field"] == "colour")
            #expect(reply.errorDetails?["reason"] == "unknown field")
        }
    }

    /// Found by schemathesis: a `null` where the request schema wants a string or an integer is refused, not read as
    /// absent (a subscription to `{"name": null, "path": "/"}` was created).
    @Test(arguments: [
        ("/v1/events", #"{"name": null, "path": "/"}"#, "name"),
        ("/v1/events/subscriptions", #"{"events": [{"name": null, "path": "/"}], "ttl": 300}"#, "events[0].name"),
        ("/v1/slots/device-42/present", #"{"id": "a", "priority": 0, "ttl": null}"#, "ttl"),
        ("/v1/events/emit", #"{"loc": null, "name": "x"}"#, "loc"),
    ])
    func aNullForATypedFieldIsInvalid(path: String, body: String, field: String) throws {
        try withServer { (server) throws in
            let reply = try server.client().post(path, try JSONParser.parse(body))
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_request")
            #expect(reply.errorDetails?["field"] == .string(field))
        }
    }

    @Test func requestIDIsEchoedOrGenerated() throws {
        try withServer { (server) throws in
            let client = server.client()
            #expect(
                try client.get("/healthz", headers: ["X-Request-Id": "abc-123"]).header("X-Request-Id") == "abc-123")
            let generated = try client.get("/healthz").header("X-Request-Id")
            #expect(generated?.isEmpty == false)
            #expect(generated != "abc-123")
        }
    }

    @Test func targetsOverTheLimitAreURITooLong() throws {
        try withServer { (server) throws in
            let client = server.client()
            let atLimit = "/" + String(repeating: "a", count: 8 * 1024 - 1)
            #expect(try client.get(atLimit).errorCode == "not_found")
            let reply = try server.client().get(atLimit + "a")
            #expect(reply.status == 414)
            #expect(reply.errorCode == "uri_too_long")
        }
    }

    @Test func declaredBodiesOverTheLimitAreRejectedUnread() throws {
        try withServer({ $0.server.maxBodyBytes = 1000 }) { (server) throws in
            let client = server.client()
            try client.sendRaw(
                Array(
                    "POST /v1/routes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n"
                        .utf8))
            let reply = try client.readResponse()
            #expect(reply.status == 413)
            #expect(reply.errorCode == "payload_too_large")
            #expect(reply.errorDetails?["limit"] == 1000)
        }
    }

    @Test func chunkedBodiesOverTheLimitAreRejected() throws {
        try withServer({ $0.server.maxBodyBytes = 1000 }) { (server) throws in
            let client = server.client()
            let chunk = String(repeating: "x", count: 800)
            let hex = String(chunk.utf8.count, radix: 16)
            try client.sendRaw(
                Array(
                    ("POST /v1/routes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "\(hex)\r\n\(chunk)\r\n\(hex)\r\n\(chunk)\r\n0\r\n\r\n").utf8))
            let reply = try client.readResponse()
            #expect(reply.status == 413)
            #expect(reply.errorCode == "payload_too_large")
        }
    }

    @Test func serverStopsCleanlyWhileClientsAreConnected() throws {
        let server = try TestServer()
        let client = server.client()
        // A route only this server has: once it has stopped its port may be another test's server (port 0 is
        // handed out again), so the check is that nothing there resolves it, not that the port refuses.
        let path = "/only-here-\(UInt64.random(in: 0...UInt64.max))"
        #expect(try client.post("/v1/routes", ["path": .string(path)]).status == 201)
        #expect(try client.get("/v1/resolve?url=\(path)").status == 200)
        server.stop()
        #expect((try? HTTPClient(port: server.port).get("/v1/resolve?url=\(path)"))?.status != 200)
    }
}
