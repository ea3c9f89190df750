import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// Who may call each endpoint of the API listener (API.md §6, and each section's own rule: §7's app endpoints,
/// §8's statistics, §11's slots, §13's console), checked end to end with both tokens set. Access is a flag on each
/// endpoint's declaration, so each endpoint can be wrong on its own: the table below is written from the contract,
/// not read from the server, and it must list every endpoint the server serves.
@Suite struct AuthorizationEndToEndTests {
    /// Who may call an endpoint: anyone; the read or the admin token; the admin token only.
    enum Who: String { case anyone, reader, admin }

    /// Every endpoint of the API listener, with who may call it and a request that reaches it (a path for its
    /// template, a body for its method).
    static let table: [(method: String, template: String, path: String, who: Who)] = [
        // §6: operational endpoints never need a token (api-notes), nor the console's files (§13: it asks for the
        // token itself).
        ("GET", "/healthz", "/healthz", .anyone),
        ("GET", "/readyz", "/readyz", .anyone),
        ("GET", "/metrics", "/metrics", .anyone),
        ("GET", "/openapi.json", "/openapi.json", .anyone),
        ("GET", "/console", "/console", .anyone),
        ("GET", "/console/{file}", "/console/app.js", .anyone),
        // §3 and §6: route changes are writes; reads, resolve and locate need the read token when it is set.
        ("POST", "/v1/routes", "/v1/routes", .admin),
        ("PUT", "/v1/routes", "/v1/routes", .admin),
        ("DELETE", "/v1/routes", "/v1/routes?pattern=/a", .admin),
        ("DELETE", "/v1/routes/{name}", "/v1/routes/someRoute", .admin),
        ("GET", "/v1/routes", "/v1/routes", .reader),
        ("GET", "/v1/routes/{name}", "/v1/routes/someRoute", .reader),
        ("GET", "/v1/resolve", "/v1/resolve?url=/a", .reader),
        ("POST", "/v1/resolve", "/v1/resolve", .reader),
        ("POST", "/v1/locate", "/v1/locate", .reader),
        ("POST", "/v1/rules/evaluate", "/v1/rules/evaluate", .reader),
        // §4: resource changes are writes.
        ("GET", "/v1/resources", "/v1/resources?loc=/a", .reader),
        ("POST", "/v1/resources", "/v1/resources", .admin),
        ("PATCH", "/v1/resources", "/v1/resources?loc=/a", .admin),
        ("DELETE", "/v1/resources", "/v1/resources?loc=/a", .admin),
        // §5: emit and type changes are writes; subscribe (to existing types) and poll are reads.
        ("POST", "/v1/events/subscriptions", "/v1/events/subscriptions", .reader),
        ("GET", "/v1/events/subscriptions/{id}", "/v1/events/subscriptions/nope?wait=0", .reader),
        ("DELETE", "/v1/events/subscriptions/{id}", "/v1/events/subscriptions/nope", .reader),
        ("POST", "/v1/events/emit", "/v1/events/emit", .admin),
        ("GET", "/v1/events", "/v1/events", .reader),
        ("POST", "/v1/events", "/v1/events", .admin),
        ("DELETE", "/v1/events", "/v1/events?pattern=/a", .admin),
        ("DELETE", "/v1/events/{name}", "/v1/events/someType", .admin),
        // §7, §8, §9: the app endpoints and the inspection endpoints need the read token on this listener.
        ("POST", "/v1/links/opens", "/v1/links/opens", .reader),
        ("POST", "/v1/deferred/claim", "/v1/deferred/claim", .reader),
        ("GET", "/v1/links/decision", "/v1/links/decision?url=/a", .reader),
        ("GET", "/v1/links/association-files", "/v1/links/association-files", .reader),
        ("GET", "/v1/stats/clicks", "/v1/stats/clicks", .reader),
        // §10.
        ("GET", "/v1/qr", "/v1/qr?url=/a", .reader),
        // §11: presenting needs the admin token; the app dismisses what it showed with the read token.
        ("POST", "/v1/slots/{slot}/present", "/v1/slots/home/present", .admin),
        ("GET", "/v1/slots/{slot}", "/v1/slots/home", .reader),
        ("DELETE", "/v1/slots/{slot}/present/{id}", "/v1/slots/home/present/someId", .reader),
    ]

    @Test func theTableListsEveryServedEndpoint() throws {
        try withServer { (server) throws in
            let served = Set(server.application.endpointList.map { $0.method + " " + $0.template })
            let listed = Set(Self.table.map { $0.method + " " + $0.template })
            #expect(
                served == listed,
                "served only: \(served.subtracting(listed)); listed only: \(listed.subtracting(served))")
            #expect(listed.count == Self.table.count, "an endpoint is listed twice")
        }
    }

    /// With both tokens set: no token, a wrong one and the read token are refused exactly where the table says
    /// (401 `unauthorized` with `WWW-Authenticate: Bearer`), and the admin token is refused nowhere.
    @Test func eachEndpointAsksForTheTokenTheContractNames() throws {
        try withServer({
            $0.adminToken = "admin-secret"
            $0.readToken = "read-secret"
        }) { (server) throws in
            let client = server.client()
            let callers: [(name: String, headers: [String: String], mayCall: Set<Who>)] = [
                ("no token", [:], [.anyone]),
                ("a wrong token", ["Authorization": "Bearer nope"], [.anyone]),
                ("the read token as a Basic credential", ["Authorization": "Basic read-secret"], [.anyone]),
                ("the read token", ["Authorization": "Bearer read-secret"], [.anyone, .reader]),
                ("the admin token", ["Authorization": "Bearer admin-secret"], [.anyone, .reader, .admin]),
            ]
            for endpoint in Self.table {
                for caller in callers {
                    let reply =
                        ["POST", "PUT", "PATCH"].contains(endpoint.method)
                        ? try client.request(endpoint.method, endpoint.path, json: [:], headers: caller.headers)
                        : try client.request(endpoint.method, endpoint.path, headers: caller.headers)
                    let label = "\(endpoint.method) \(endpoint.path) with \(caller.name)"
                    if caller.mayCall.contains(endpoint.who) {
                        #expect(reply.status != 401, "\(label): \(reply.status) \(reply.text)")
                    } else {
                        #expect(reply.status == 401, "\(label): \(reply.status)")
                        #expect(reply.errorCode == "unauthorized", "\(label)")
                        #expect(reply.header("WWW-Authenticate") == "Bearer", "\(label)")
                        // Which token it needs: a client refused with the read token learns it is not enough.
                        let needs = reply.json?["error"]?["details"]?["needs"]?.stringValue
                        #expect(needs == (endpoint.who == .admin ? "admin" : "read"), "\(label)")
                    }
                }
            }
        }
    }

    /// §6: without a read token, reads stay open while writes still need the admin token.
    @Test func withoutAReadTokenReadsAreOpen() throws {
        try withServer({ $0.adminToken = "admin-secret" }) { (server) throws in
            let client = server.client()
            for endpoint in Self.table {
                let reply =
                    ["POST", "PUT", "PATCH"].contains(endpoint.method)
                    ? try client.request(endpoint.method, endpoint.path, json: [:])
                    : try client.request(endpoint.method, endpoint.path)
                let label = "\(endpoint.method) \(endpoint.path)"
                if endpoint.who == .admin {
                    #expect(reply.status == 401, "\(label): \(reply.status)")
                } else {
                    #expect(reply.status != 401, "\(label): \(reply.status) \(reply.text)")
                }
            }
        }
    }

    /// A page on another site can send a POST with an untyped body without asking first (`fetch` in `no-cors` mode
    /// with a `Blob`), and the API reads an untyped body as JSON: with no admin token set, any page an operator
    /// opened could register routes. An untyped body from a browser (it carries `Origin`) is 415
    /// `unsupported_media_type`; curl and apps (no `Origin`) and the console (which declares the type) are served.
    @Test func anUntypedBodyFromABrowserIsRefused() throws {
        try withServer { (server) throws in
            func post(_ name: String, headers: String) throws -> HTTPClient.Reply {
                let body = #"{"path": "/\#(name)", "name": "\#(name)"}"#
                let client = server.client()
                try client.sendRaw(
                    Array(
                        ("POST /v1/routes HTTP/1.1\r\nHost: x\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n"
                            + body).utf8))
                return try client.readResponse()
            }
            let forged = try post("forged", headers: "Origin: https://evil.example\r\n")
            #expect(forged.status == 415)
            #expect(forged.errorCode == "unsupported_media_type")
            #expect(try server.client().get("/v1/routes/forged").status == 404)
            #expect(try post("curl", headers: "").status == 201)
            let console = try post(
                "console", headers: "Origin: http://127.0.0.1:\(server.port)\r\nContent-Type: application/json\r\n")
            #expect(console.status == 201)
        }
    }
}
