import Foundation
import GRDB
import LinkCore
import Testing

@testable import LinkServer

#if canImport(Glibc)
    import Glibc
#endif

/// The public listener in the real executable: both listeners stop on SIGTERM, and clicks counted just before
/// it are all in the statistics after a restart (API.md §8).
@Suite struct LinkProcessTests {
    static let agent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0"

    /// The executable on a new data folder with the default settings, `/users/:id` (`user`) registered: the folder,
    /// the arguments to start it again on it, the process, and a client of its links listener.
    static func startedWithAUserRoute() throws -> (
        dataDir: String, arguments: [String], process: ServerProcess, links: HTTPClient
    ) {
        let dataDir = TestServer.temporaryDirectory()
        let config = dataDir + "/config.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: config))
        let arguments = [
            "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", "/nonexistent.json", "--config",
            config,
        ]
        let process = try ServerProcess(arguments: arguments)
        let port = try process.waitUntilListening()
        let linksPort = try process.waitForLinksPort()
        #expect(linksPort != 0)
        #expect(try HTTPClient(port: port).post("/v1/routes", ["path": "/users/:id", "name": "user"]).status == 201)
        return (dataDir, arguments, process, HTTPClient(port: linksPort))
    }

    @Test func aSIGTERMRightAfterABurstOfClicksLosesNone() throws {
        let (_, arguments, first, links) = try Self.startedWithAUserRoute()
        let agent = Self.agent
        for index in 0..<300 {
            let reply = try links.get("/users/\(index)", headers: ["User-Agent": agent])
            #expect(reply.status == 404)
        }
        for index in 0..<50 {
            _ = try links.get("/unknown/\(index)", headers: ["User-Agent": agent])
        }
        first.signal(SIGTERM)
        // Exited, and both listeners with it. (Whether the links port now refuses is not the test: port 0 is handed
        // out again to the tests running beside this one.)
        #expect(try first.waitForExit() == 0)

        let second = try ServerProcess(arguments: arguments)
        let again = try second.waitUntilListening()
        let stats = try HTTPClient(port: again).get("/v1/stats/clicks?route=user")
        #expect(stats.json?["clicks"] == 300)
        let all = try HTTPClient(port: again).get("/v1/stats/clicks")
        #expect(all.json?["unmatched"] == 50)
        second.signal(SIGTERM)
        #expect(try second.waitForExit() == 0)
    }

    /// API.md §8: "a crash at most the last second": the counts are written by the server itself, a batch a
    /// second, not by a stop. The clicks' counts are seen in the SQLite file (read from this process), then the
    /// server is killed with SIGKILL; the next start on the folder reports every one.
    @Test func clickCountsWrittenBeforeAKill9AreKept() throws {
        let (dataDir, arguments, first, links) = try Self.startedWithAUserRoute()
        for index in 0..<40 { _ = try links.get("/users/\(index)", headers: ["User-Agent": Self.agent]) }
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: dataDir + "/linkserver.sqlite", configuration: configuration)
        let stored = {
            try database.read { db in try Int.fetchOne(db, sql: "SELECT SUM(count) FROM click_count") } ?? 0
        }
        #expect(try waitUntil(timeout: .seconds(10)) { try stored() == 40 })
        try database.close()
        first.signal(SIGKILL)
        _ = try first.waitForExit()

        let second = try ServerProcess(arguments: arguments)
        let again = HTTPClient(port: try second.waitUntilListening())
        #expect(try again.get("/v1/stats/clicks?route=user").json?["clicks"] == 40)
        second.signal(SIGTERM)
        #expect(try second.waitForExit() == 0)
    }

    /// API.md §7 "`link` on routes": a template whose host is not literal, or that names a parameter the pattern does
    /// not have, is "exit 2 at start" when it comes from the routes file, with a message naming the field and the
    /// template; nothing listens.
    @Test(arguments: [
        ("https://{id}.example.com/", "a placeholder may not stand in the host"),
        ("https://www.example.com/{nope}", "/u/:id has no parameter 'nope'"),
    ])
    func aBadLinkTemplateInTheRoutesFileStopsTheStart(template: String, reason: String) throws {
        let dataDir = TestServer.temporaryDirectory()
        let routesFile = dataDir + "/routes.json"
        let routes = #"{"routes": [{"path": "/u/:id", "name": "u", "link": {"desktop": "\#(template)"}}]}"#
        try Data(routes.utf8).write(to: URL(fileURLWithPath: routesFile))
        let server = try ServerProcess(arguments: [
            "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", routesFile,
        ])
        #expect(try server.waitForExit() == 2)
        #expect(
            server.log.contains("Invalid link template '\(template)' in 'routes[0].link.desktop': \(reason)"),
            "\(server.log)")
        #expect(!server.log.contains("listening"))
    }

    /// API.md §7: config routes that would make the apple-app-site-association file larger than Apple reads (128 KB)
    /// stop the start: exit 2, with the sizes in the message; nothing listens.
    @Test func aRoutesFileThatOutgrowsApplesLimitStopsTheStart() throws {
        let dataDir = TestServer.temporaryDirectory()
        let routesFile = dataDir + "/routes.json"
        let routes = (0..<5_000).map { #"{"path": "/p\#($0)/:id", "name": "r\#($0)"}"# }.joined(separator: ",")
        try Data(#"{"routes": [\#(routes)]}"#.utf8).write(to: URL(fileURLWithPath: routesFile))
        let config = dataDir + "/config.json"
        let settings =
            #"{"links": {"hosts": ["links.example.com"], "apps": {"ios": {"appIDs": ["ABCDE12345.com.example.app"]}}}}"#
        try Data(settings.utf8).write(to: URL(fileURLWithPath: config))
        let server = try ServerProcess(arguments: [
            "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", routesFile, "--config", config,
        ])
        #expect(try server.waitForExit() == 2)
        #expect(server.log.contains("Apple reads at most 131072"), "\(server.log)")
        #expect(!server.log.contains("listening"))
    }
}
