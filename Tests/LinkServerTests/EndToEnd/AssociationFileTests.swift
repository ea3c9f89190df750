import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// The files for the operating systems on the links listener (API.md §7 "Files for the operating systems"): their
/// `ETag`, `HEAD`, bytes that depend only on the routes, and config routes among their components.
@Suite struct AssociationFileTests {
    static let paths = [
        "/.well-known/apple-app-site-association", "/apple-app-site-association", "/.well-known/assetlinks.json",
    ]

    /// The SHA-256 of `bytes` in lower-case hex, from `sha256sum` (Foundation on Linux has no CryptoKit; the test
    /// does not use the service's own hash).
    static func sha256(_ bytes: [UInt8]) throws -> String {
        let file = TestServer.temporaryDirectory() + "/body"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix { $0 != " " })
    }

    static func fetch(_ client: HTTPClient, _ path: String, method: String = "GET") throws -> HTTPClient.Reply {
        try client.request(method, path, headers: ["Host": "links.example.com"])
    }

    /// §7: "`ETag` is `"` + the first 16 hex digits of the body's SHA-256 + `"`", for both files; `HEAD` answers the
    /// same status and headers, without a body.
    @Test(arguments: paths)
    func theETagIsTheBodysSHA256AndHeadAnswersTheSameHeaders(path: String) throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let links = server.linksClient()
            let file = try Self.fetch(links, path)
            #expect(file.status == 200)
            #expect(file.body.count > 0)
            let digest = try Self.sha256(file.body)
            #expect(digest.count == 64)
            #expect(file.header("etag") == "\"" + digest.prefix(16) + "\"")
            let head = try Self.fetch(links, path, method: "HEAD")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            for name in ["content-type", "cache-control", "etag", "content-length"] {
                #expect(head.header(name) == file.header(name), "\(name)")
            }
            #expect(head.header("content-length") == String(file.body.count))
            let cached = try links.request(
                "HEAD", path, headers: ["Host": "links.example.com", "If-None-Match": file.header("etag") ?? ""])
            #expect(cached.status == 304)
            #expect(cached.header("content-length") == String(file.body.count))
        }
    }

    /// §7: serialised deterministically, "so every instance serves identical bytes for the same routes": a server
    /// restarted on the same data serves the same bytes and `ETag`.
    @Test func aRestartedServerServesTheSameBytesAndETag() throws {
        let dataDir = TestServer.temporaryDirectory()
        let first = try withServer(dataDir: dataDir, { LinkListenerTests.configure(&$0) }) {
            (server) throws -> [HTTPClient.Reply] in
            let api = server.client()
            #expect(try api.post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            #expect(try api.post("/v1/routes", ["path": "/web/only", "link": ["appLinks": false]]).status == 201)
            #expect(try api.post("/v1/routes", ["path": "/Caf%C3%A9/:x", "caseInsensitive": true]).status == 201)
            return try Self.paths.map { try Self.fetch(server.linksClient(), $0) }
        }
        let second = try withServer(dataDir: dataDir, { LinkListenerTests.configure(&$0) }) {
            (server) throws -> [HTTPClient.Reply] in
            try Self.paths.map { try Self.fetch(server.linksClient(), $0) }
        }
        for (before, after) in zip(first, second) {
            #expect(before.status == 200)
            #expect(after.status == 200)
            #expect(after.body == before.body)
            #expect(after.header("etag") == before.header("etag"))
        }
        #expect(first[0].header("etag") != first[2].header("etag"))
    }

    /// §7: the component list has one component per route pattern, "API and config routes": routes from the routes
    /// file are in both files, in specificity order with the API's (the longer of two patterns whose kinds agree
    /// first, then by glob).
    @Test func configRoutesAreInBothFiles() throws {
        let dataDir = TestServer.temporaryDirectory()
        let routesFile = dataDir + "/routes.json"
        try Data(
            #"{"routes": [{"path": "/login", "name": "login"}, {"path": "/items/:id", "name": "item", "link": {"appLinks": false}}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: routesFile))
        try withServer(dataDir: dataDir, { LinkListenerTests.configure(&$0) { $0.routesFile = routesFile } }) {
            (server) throws in
            #expect(try server.client().post("/v1/routes", ["path": "/users/:id", "name": "user"]).status == 201)
            let links = server.linksClient()
            let apple = try Self.fetch(links, "/.well-known/apple-app-site-association")
            let components = apple.json?["applinks"]?["details"]?.arrayValue?.first?["components"]?.arrayValue ?? []
            #expect(
                components == [
                    ["/": "/items/?*", "comment": "item", "exclude": true], ["/": "/users/?*", "comment": "user"],
                    ["/": "/login", "comment": "login"], ["/": "/login/", "comment": "login"],
                ])
            let android = try Self.fetch(links, "/.well-known/assetlinks.json")
            let dynamic =
                android.json?.arrayValue?.first?["relation_extensions"]?["delegate_permission/common.handle_all_urls"]?[
                    "dynamic_app_link_components"]
            #expect(
                dynamic == [
                    ["/": "/items/?*", "exclude": true, "comments": "item"], ["/": "/users/?*", "comments": "user"],
                    ["/": "/login", "comments": "login"], ["/": "/login/", "comments": "login"],
                ])
        }
    }
}
