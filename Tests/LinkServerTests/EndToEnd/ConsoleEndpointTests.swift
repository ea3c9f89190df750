import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// The console (API.md §13) over real HTTP: its files on the API listener with their types and security headers,
/// never on the links listener, and the two inspection endpoints it calls. The browser test is
/// `scripts/test-console`.
@Suite struct ConsoleEndpointTests {
    static let policy = "default-src 'self'; frame-ancestors 'none'"

    @Test(arguments: [
        ("/console", "text/html; charset=utf-8"), ("/console/app.js", "text/javascript; charset=utf-8"),
        ("/console/console.css", "text/css; charset=utf-8"), ("/console/icon.svg", "image/svg+xml"),
    ])
    func filesAreServedWithTheirTypeAndSecurityHeaders(path: String, type: String) throws {
        try withServer({
            $0.adminToken = "secret"
            $0.readToken = "reader"
        }) { (server) throws in
            let reply = try server.client().get(path)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == type)
            #expect(reply.header("Content-Security-Policy") == ConsoleEndpointTests.policy)
            #expect(reply.header("Referrer-Policy") == "no-referrer")
            #expect(reply.header("X-Content-Type-Options") == "nosniff")
            #expect(reply.header("Cache-Control") == "no-cache")
            let etag = try #require(reply.header("ETag"))
            #expect(etag.wholeMatch(of: /"[0-9a-f]{16}"/) != nil)
            let client = server.client()
            let again = try client.get(path, headers: ["If-None-Match": etag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("Content-Length") == String(reply.body.count))
            #expect(again.header("Content-Security-Policy") == ConsoleEndpointTests.policy)
            // No content was sent with the 304: the connection's next answer is read whole.
            #expect(try client.get(path).body == reply.body)
        }
    }

    @Test func thePageLoadsItsScriptAsAModuleAndHasNoInlineScript() throws {
        try withServer { (server) throws in
            let html = try server.client().get("/console").text
            #expect(html.contains(#"<script type="module" src="/console/app.js"></script>"#))
            #expect(html.ranges(of: "<script").count == 1)
            #expect(!html.contains(" style=\""))
            #expect(!html.contains("http://") && !html.contains("https://"))
            for file in ["app.js", "api.js", "routes.js", "try.js", "stats.js", "resources.js", "events.js"] {
                let script = try server.client().get("/console/" + file)
                #expect(script.status == 200, "\(file)")
                #expect(!script.text.contains("innerHTML"), "\(file)")
                #expect(!script.text.contains("eval("), "\(file)")
            }
        }
    }

    /// "Every console response" (API.md §13): the refusals under `/console` too, the endpoint table's own (a
    /// deeper path, another method) as well as the file endpoint's.
    @Test func refusalsUnderTheConsoleCarryTheSameHeaders() throws {
        try withServer { (server) throws in
            for (method, path, status) in [
                ("GET", "/console/nothing.js", 404), ("GET", "/console/a/b", 404), ("POST", "/console", 405),
                ("DELETE", "/console/app.js", 405),
            ] {
                let reply = try server.client().request(method, path)
                #expect(reply.status == status, "\(method) \(path)")
                #expect(reply.errorCode == (status == 404 ? "not_found" : "method_not_allowed"))
                #expect(reply.header("Content-Security-Policy") == ConsoleEndpointTests.policy, "\(method) \(path)")
                #expect(reply.header("Referrer-Policy") == "no-referrer", "\(method) \(path)")
                #expect(reply.header("X-Content-Type-Options") == "nosniff")
            }
            #expect(try server.client().request("POST", "/console").header("Allow") == "GET, HEAD")
            // Elsewhere the API's own refusals stay as they were.
            #expect(try server.client().get("/consoles").header("Content-Security-Policy") == nil)
        }
    }

    /// The refusals made before any handler sees the request (a target past 8 KiB, a body past the limit, an HTTP/1.1
    /// request without `Host`, an undecodable path) carry the console's headers on console paths too.
    @Test func refusalsBeforeAnyHandlerCarryTheHeadersOnConsolePaths() throws {
        try withServer({ $0.server.maxBodyBytes = 1024 }) { (server) throws in
            let heads = [
                "GET /console?x=\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: x\r\n\r\n",
                "POST /console HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n",
                "GET /console HTTP/1.1\r\n\r\n",
                "GET /console/%zz HTTP/1.1\r\nHost: x\r\n\r\n",
            ]
            for (head, status) in zip(heads, [414, 413, 400, 400]) {
                let client = server.client()
                try client.sendRaw(Array(head.utf8))
                let reply = try client.readResponse()
                #expect(reply.status == status, "\(head.prefix(40))")
                #expect(reply.header("Content-Security-Policy") == ConsoleEndpointTests.policy, "\(head.prefix(40))")
                #expect(reply.header("Referrer-Policy") == "no-referrer", "\(head.prefix(40))")
            }
            // Elsewhere they stay as they were.
            let client = server.client()
            try client.sendRaw(
                Array("GET /v1/resolve?x=\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let other = try client.readResponse()
            #expect(other.status == 414)
            #expect(other.header("Content-Security-Policy") == nil)
        }
    }

    @Test func theLinksListenerDoesNotServeTheConsole() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            _ = try server.client().post("/v1/routes", ["path": "/:page", "link": ["desktop": "https://example.com/"]])
            let links = HTTPClient(port: server.application.linksPort)
            for path in ["/console", "/console/app.js", "/console/console.css"] {
                let reply = try links.get(path, headers: ["Host": "links.example.com"])
                #expect(reply.header("Content-Security-Policy") == nil, "\(path)")
                #expect(!reply.text.contains("LinkServer console"), "\(path)")
                #expect(reply.header("Content-Type")?.hasPrefix("text/javascript") != true, "\(path)")
            }
        }
    }

    @Test func theDecisionIsTheLinksListenersAndIsNotCounted() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let client = server.client()
            #expect(try client.post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let desktop = try client.get("/v1/links/decision?url=https%3A%2F%2Flinks.example.com%2Fusers%2F42")
            #expect(desktop.status == 200)
            #expect(desktop.json?["decision"] == "redirect")
            #expect(desktop.json?["target"] == "https://www.example.com/u/42")
            #expect(desktop.json?["platform"] == "desktop")
            #expect(desktop.json?["bot"] == false)
            #expect(desktop.json?["resolution"]?["route"]?["name"] == "user")
            let ios = try client.get("/v1/links/decision?url=/users/42&platform=ios")
            #expect(ios.json?["target"] == "https://apps.apple.com/app/id123456789")
            let preview = try client.get("/v1/links/decision?url=/users/42&platform=ios&bot=preview")
            #expect(preview.json?["decision"] == "preview")
            #expect(preview.json?["bot"] == "preview")
            let ambiguous = try client.get("/v1/links/decision?url=/users/42&platform=ambiguous")
            #expect(ambiguous.json?["decision"] == "platform_check")
            // The link's resolution all the same: the route matched (§7 step 7: "the §3 answer, or null").
            #expect(ambiguous.json?["resolution"]?["route"]?["name"] == "user")
            let missing = try client.get("/v1/links/decision?url=/nowhere/1/2/3")
            #expect(missing.json?["decision"] == "not_found")
            #expect(missing.json?["resolution"] == .null)
            // A full URL on a host outside links.hosts is the listener's 404 for that Host, resolved or not.
            let elsewhere = try client.get(
                "/v1/links/decision?url=https%3A%2F%2Fevil.example%2Fusers%2F42&platform=ios")
            #expect(elsewhere.json?["decision"] == "not_found")
            #expect(elsewhere.json?["status"] == 404)
            #expect(elsewhere.json?["target"] == .null)
            #expect(elsewhere.json?["resolution"] == .null)
            let listed = try client.get("/v1/links/decision?url=https%3A%2F%2Fa.example.org%2Fusers%2F42")
            #expect(listed.json?["decision"] == "redirect")
            #expect(try client.get("/v1/links/decision?platform=ios").errorCode == "invalid_request")
            #expect(try client.get("/v1/links/decision?url=/u&platform=watch").errorCode == "invalid_request")
            #expect(try client.get("/v1/links/decision?url=/u&bot=maybe").errorCode == "invalid_request")
            #expect(try client.get("/v1/links/decision?url=%2Fa%25zz").errorCode == "invalid_url")
            // A click is in the statistics within 2 s (API.md §8); none of these may be.
            usleep(2_500_000)
            let stats = try client.get("/v1/stats/clicks").json
            #expect(stats?["clicks"] == 0)
            #expect(stats?["bots"] == 0)
            #expect(stats?["unmatched"] == 0)
        }
    }

    @Test func theAssociationFilesAreTheOnesTheLinksListenerServes() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let client = server.client()
            #expect(try client.post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let files = try #require(try client.get("/v1/links/association-files").json)
            let links = HTTPClient(port: server.application.linksPort)
            let apple = try links.get("/.well-known/apple-app-site-association", headers: ["Host": "links.example.com"])
            #expect(files["apple"]?["etag"]?.stringValue == apple.header("ETag"))
            #expect(files["apple"]?["bytes"]?.intValue == apple.body.count)
            #expect(files["apple"]?["body"] == apple.json)
            let android = try links.get("/.well-known/assetlinks.json", headers: ["Host": "links.example.com"])
            #expect(files["android"]?["etag"]?.stringValue == android.header("ETag"))
            #expect(files["android"]?["body"] == android.json)
        }
        try withServer { (server) throws in
            let files = try server.client().get("/v1/links/association-files").json
            #expect(files?["apple"] == .null)
            #expect(files?["android"] == .null)
        }
    }

    @Test func theInspectionEndpointsNeedTheReadToken() throws {
        try withServer({ $0.readToken = "reader" }) { (server) throws in
            let client = server.client()
            #expect(try client.get("/v1/links/decision?url=/a").status == 401)
            #expect(try client.get("/v1/links/association-files").status == 401)
            #expect(
                try client.get("/v1/links/association-files", headers: ["Authorization": "Bearer reader"]).status == 200
            )
            #expect(try client.get("/console").status == 200)
        }
    }
}
