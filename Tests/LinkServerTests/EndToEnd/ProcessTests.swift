import Foundation
import GRDB
import LinkCore
import Testing

@testable import LinkServer

#if canImport(Glibc)
    import Glibc
#endif

/// The executable itself: flags, exit codes, signals.
@Suite(.serialized) struct ProcessTests {
    @Test func servesOnPortZeroAndStopsCleanlyOnSIGTERM() throws {
        let dataDir = TestServer.temporaryDirectory()
        let server = try ServerProcess(arguments: [
            "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", "/nonexistent.json",
        ])
        let port = try server.waitUntilListening()
        #expect(try HTTPClient(port: port).get("/healthz").status == 200)
        // A routes file that is not there is allowed (no config routes), and said at start.
        #expect(server.log.contains("routes file not found; no config routes"))
        #expect(!server.log.contains("writes need no token"))
        server.signal(SIGTERM)
        #expect(try server.waitForExit() == 0)
        #expect(server.log.contains("stopped"))
        #expect(FileManager.default.fileExists(atPath: dataDir + "/linkserver.sqlite"))
    }

    /// A read token without an admin token leaves writes open (API.md §6); the start says so.
    @Test func aReadTokenWithoutAnAdminTokenIsWarnedAbout() throws {
        let server = try ServerProcess(
            arguments: ["--host", "127.0.0.1", "--port", "0", "--data-dir", TestServer.temporaryDirectory()],
            environment: ["LINK_READ_TOKEN": "r"])
        let port = try server.waitUntilListening()
        #expect(server.log.contains("auth.readToken is set without auth.adminToken: writes need no token"))
        #expect(try HTTPClient(port: port).post("/v1/routes", ["path": "/open"]).status == 201)
        server.signal(SIGTERM)
        #expect(try server.waitForExit() == 0)
    }

    /// A SIGHUP sent the moment the first listener is logged reloads the routes file. (A smoke test: the window it
    /// once fell into, before the start ended, is too short to hit from outside; `ReloadRequestsTests` holds it
    /// open.)
    @Test func aSighupAsSoonAsTheServerListensIsNotLost() throws {
        let dataDir = TestServer.temporaryDirectory()
        let routesFile = dataDir + "/routes.json"
        try #"{"routes": [{"path": "/old/:id"}]}"#.write(toFile: routesFile, atomically: true, encoding: .utf8)
        let server = try ServerProcess(arguments: [
            "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", routesFile,
        ])
        let port = try server.waitUntilListening()
        try #"{"routes": [{"path": "/new/:id"}]}"#.write(toFile: routesFile, atomically: true, encoding: .utf8)
        server.signal(SIGHUP)
        try server.waitForLog("routes file reloaded")
        #expect(try HTTPClient(port: port).get("/v1/resolve?url=/new/1").status == 200)
    }

    /// SIGHUP reloads the routes file: new routes are served, removed ones are gone, the API routes stay; a file
    /// that does not load, or is gone, changes nothing; an empty list removes the config routes.
    @Test func sighupReloadsTheRoutesFile() throws {
        let dataDir = TestServer.temporaryDirectory()
        let routesFile = dataDir + "/routes.json"
        func writeRoutes(_ text: String) throws {
            try text.write(toFile: routesFile, atomically: true, encoding: .utf8)
        }
        try writeRoutes(#"{"routes": [{"path": "/old/:id", "name": "old"}]}"#)
        let server = try ServerProcess(arguments: [
            "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", routesFile,
        ])
        let client = HTTPClient(port: try server.waitUntilListening())
        #expect(try client.post("/v1/routes", ["path": "/api/:id", "name": "api"]).status == 201)
        #expect(try client.get("/v1/resolve?url=/old/1").status == 200)

        try writeRoutes(#"{"routes": [{"path": "/new/:id", "name": "new"}]}"#)
        server.signal(SIGHUP)
        try server.waitForLog("routes file reloaded")
        #expect(try client.get("/v1/resolve?url=/new/1").status == 200)
        #expect(try client.get("/v1/resolve?url=/old/1").status == 404)
        #expect(try client.get("/v1/resolve?url=/api/1").status == 200)

        try writeRoutes(#"{"routes": [{"path": "/api/:x", "name": "clash"}]}"#)
        server.signal(SIGHUP)
        try server.waitForLog("routes file not reloaded")
        #expect(try client.get("/v1/resolve?url=/new/1").status == 200)
        #expect(try client.get("/v1/routes/api").status == 200)

        // A file gone (moved, a deploy half done) is not "no routes": the config routes stay.
        try FileManager.default.removeItem(atPath: routesFile)
        server.signal(SIGHUP)
        try server.waitForLog("routes file not reloaded", count: 2)
        #expect(server.log.contains("is not there"))
        #expect(try client.get("/v1/resolve?url=/new/1").status == 200)

        try writeRoutes(#"{"routes": []}"#)
        server.signal(SIGHUP)
        try server.waitForLog("routes file reloaded", count: 2)
        #expect(try client.get("/v1/resolve?url=/new/1").status == 404)

        server.signal(SIGTERM)
        #expect(try server.waitForExit() == 0)
    }

    /// A routes file that is there but cannot be read is not taken for an absent one: the start stops.
    @Test func anUnreadableRoutesFileStopsTheStart() throws {
        let dataDir = TestServer.temporaryDirectory()
        // A folder: it exists and cannot be read as a file (permissions would not stop the tests' root user).
        let server = try ServerProcess(arguments: [
            "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", dataDir,
        ])
        #expect(try server.waitForExit() == 2)
        #expect(server.log.contains("cannot read routes file \(dataDir): Is a directory"), "\(server.log)")
    }

    /// `server.shutdownDelay`: after SIGTERM, `/readyz` answers 503 `stopping` while everything is still served
    /// (reads, writes, the links listener), so that a load balancer stops sending before the listeners close; a
    /// second signal ends the wait.
    @Test func aShutdownDelayServesOnWithReadyz503UntilASecondSignal() throws {
        let server = try ServerProcess(
            arguments: ["--host", "127.0.0.1", "--port", "0", "--data-dir", TestServer.temporaryDirectory()],
            environment: ["LINK_SERVER_SHUTDOWN_DELAY": "3600"])
        let port = try server.waitUntilListening()
        let linksPort = try server.waitForLinksPort()
        server.signal(SIGTERM)
        try server.waitForLog("stopping: /readyz answers 503")
        let client = HTTPClient(port: port)
        let readiness = try client.get("/readyz")
        #expect(readiness.status == 503)
        #expect(readiness.json?["status"] == "stopping")
        #expect(try client.get("/healthz").status == 200)
        #expect(try client.post("/v1/routes", ["path": "/draining/:id", "name": "draining"]).status == 201)
        #expect(try client.get("/v1/resolve?url=/draining/1").status == 200)
        // A click on the public listener (no web target configured: 404, and counted).
        #expect(try HTTPClient(port: linksPort).get("/draining/1", headers: ["User-Agent": Self.desktop]).status == 404)
        // Counted, in the statistics within 2 s (§8).
        #expect(try waitUntil { try client.get("/v1/stats/clicks?route=draining").json?["clicks"] == 1 })
        #expect(server.process.isRunning)
        server.signal(SIGTERM)
        #expect(try server.waitForExit() == 0)
        #expect(server.log.contains("a second signal: stopping now"))
        #expect(server.log.contains("stopped"))
    }

    private static let desktop =
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0"

    /// Without a second signal the delay runs out and the process stops by itself.
    @Test func aShutdownDelayEndsByItself() throws {
        let server = try ServerProcess(
            arguments: ["--host", "127.0.0.1", "--port", "0", "--data-dir", TestServer.temporaryDirectory()],
            environment: ["LINK_SERVER_SHUTDOWN_DELAY": "1"])
        try server.waitUntilListening()
        server.signal(SIGTERM)
        #expect(try server.waitForExit() == 0)
        #expect(server.log.contains("still serving until the load balancer has seen /readyz 503"))
        #expect(!server.log.contains("a second signal: stopping now"))
        #expect(server.log.contains("stopped"))
    }

    /// A stored value of the wrong type (a data folder edited by hand, say) stops the start with a message that names
    /// the column; it crashed the process (GRDB's non-throwing reads of a row trap on a value they cannot convert).
    @Test func aStoredValueOfTheWrongTypeStopsTheStartWithAMessage() throws {
        let second = try Self.startedAgainAfterEditingTheStore { port in
            let present = try HTTPClient(port: port).post("/v1/slots/home/present", ["id": "p1", "priority": 5])
            #expect(present.json?["presented"] == true)
        } edit: { db in
            try db.execute(sql: "UPDATE slot SET priority = 'high'")
        }
        #expect(try second.waitForExit() == 1)
        #expect(second.log.contains(#"could not decode Int from database value "high" - column: "priority""#))
        #expect(second.log.contains("start failed"))
    }

    /// A stored counter edited past anything use can reach (the resources' revision, the last `seq` reserved), whose
    /// next write would overflow and trap, stops the start with a message naming it.
    @Test(arguments: [
        ("resources.revision", String(Int.max), "'resources revision' is \(Int.max)"),
        ("events.seqReserved", String(Int.max), "'events.seqReserved' is \(Int.max)"),
        // Past Int: read as none, the seq would start again at 0, below the cursors clients hold.
        ("events.seqReserved", "99999999999999999999", "'events.seqReserved' is 99999999999999999999"),
    ])
    func aStoredCounterPastItsRangeStopsTheStart(key: String, value: String, message: String) throws {
        let second = try Self.startedAgainAfterEditingTheStore { db in
            try db.execute(
                sql:
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, value])
        }
        #expect(try second.waitForExit() == 1)
        #expect(second.log.contains("the stored counter \(message)"), "\(second.log)")
    }

    /// Starts the executable on a new data folder, runs `use` against its API port, stops it, runs `edit` on its
    /// SQLite file (a store edited by hand), and starts it again: answers that second process.
    static func startedAgainAfterEditingTheStore(
        use: (UInt16) throws -> Void = { _ in }, edit: (Database) throws -> Void
    ) throws -> ServerProcess {
        let dataDir = TestServer.temporaryDirectory()
        let arguments = ["--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", "/nonexistent.json"]
        let first = try ServerProcess(arguments: arguments)
        try use(try first.waitUntilListening())
        first.signal(SIGTERM)
        #expect(try first.waitForExit() == 0)
        let database = try DatabaseQueue(path: dataDir + "/linkserver.sqlite")
        try database.write(edit)
        try database.close()
        return try ServerProcess(arguments: arguments)
    }

    /// The executable with a grace of an hour, and a request in flight on it: a POST whose body never comes (the
    /// interim 100 says the server has begun it), so a stop waits for it.
    static func serverHoldingARequest() throws -> (server: ServerProcess, port: UInt16, inFlight: HTTPClient) {
        let server = try ServerProcess(
            arguments: ["--host", "127.0.0.1", "--port", "0", "--data-dir", TestServer.temporaryDirectory()],
            environment: ["LINK_SERVER_SHUTDOWN_GRACE": "3600"])
        let port = try server.waitUntilListening()
        let inFlight = HTTPClient(port: port)
        try inFlight.sendRaw(
            Array(
                ("POST /v1/routes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n"
                    + "Expect: 100-continue\r\n\r\n").utf8))
        #expect(try inFlight.readResponse().status == 100)
        return (server, port, inFlight)
    }

    /// A further signal during the stop ends its wait for requests in flight (`server.shutdownGrace`, here an hour):
    /// an operator who sees a stuck stop need not reach for SIGKILL, and the store is still closed cleanly.
    @Test func aFurtherSignalEndsTheWaitForRequestsInFlight() throws {
        let (server, _, inFlight) = try Self.serverHoldingARequest()
        defer { inFlight.disconnect() }
        server.signal(SIGTERM)
        try server.waitForLog("shutting down")
        #expect(server.process.isRunning)
        server.signal(SIGTERM)
        #expect(try server.waitForExit() == 0)
        let line = server.log.split(separator: "\n").first { $0.contains("a further signal: not waiting") }
        #expect(line?.contains("requests=1") == true, "\(server.log)")
        #expect(server.log.contains("stopped"))
    }

    /// Once the stop has begun, an answer on a kept-alive connection carries `Connection: close` (RFC 9112 §9.6) and
    /// ends it: a client that keeps sending on its connection does not hold the stop to its grace, only to have its
    /// last request cut unanswered when the grace ends. (A request held in flight keeps the stop waiting meanwhile.)
    @Test func aStopEndsEachKeptAliveConnectionWithItsNextAnswer() throws {
        let (server, port, inFlight) = try Self.serverHoldingARequest()
        defer { inFlight.disconnect() }
        let keptAlive = HTTPClient(port: port)
        let before = try keptAlive.get("/healthz")
        #expect(before.status == 200 && before.header("connection") == nil)
        server.signal(SIGTERM)
        try server.waitForLog("shutting down")
        // The stop begins to drain right after that line: an answer soon after it says close.
        var closing: HTTPClient.Reply?
        let giveUp = ContinuousClock.now + .seconds(10)
        while closing == nil, ContinuousClock.now < giveUp {
            let reply = try keptAlive.get("/healthz")
            #expect(reply.status == 200)
            if reply.header("connection") == "close" { closing = reply }
        }
        #expect(closing != nil)
        server.signal(SIGTERM)
        #expect(try server.waitForExit() == 0)
    }

    /// `logging.format: json` (`LINK_LOGGING_FORMAT`): every line the process writes, from the start to the stop,
    /// is one JSON object with the time (RFC 3339, milliseconds), the level and the message.
    @Test func jsonLogLinesFromStartToStop() throws {
        let server = try ServerProcess(
            arguments: ["--host", "127.0.0.1", "--port", "0", "--data-dir", TestServer.temporaryDirectory()],
            environment: ["LINK_LOGGING_FORMAT": "json", "LINK_LOGGING_ACCESS_LOG": "info"])
        let port = try server.waitUntilListening()
        #expect(try HTTPClient(port: port).get("/healthz").status == 200)
        try server.waitForLog(#""message":"request""#)
        server.signal(SIGTERM)
        #expect(try server.waitForExit() == 0)
        let lines = server.log.split(separator: "\n")
        #expect(lines.count >= 4)
        var messages: [String] = []
        for line in lines {
            let json = try JSONParser.parse(Array(line.utf8))
            let time = try #require(json["time"]?.stringValue, "\(line)")
            #expect(time.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil)
            #expect(json["level"] != nil)
            messages.append(try #require(json["message"]?.stringValue))
        }
        #expect(messages.contains { $0.hasPrefix("listening on http://127.0.0.1:") })
        #expect(messages.last == "stopped")
        // The access line's fields are the object's own keys.
        let access = try lines.map { try JSONParser.parse(Array($0.utf8)) }.first { $0["message"] == "request" }
        #expect(access?["http.endpoint"] == "/healthz")
        #expect(access?["http.status"] == "200")
    }

    @Test func stopsOnSIGINTToo() throws {
        let server = try ServerProcess(arguments: [
            "--host", "127.0.0.1", "--port", "0", "--data-dir", TestServer.temporaryDirectory(),
        ])
        try server.waitUntilListening()
        server.signal(SIGINT)
        #expect(try server.waitForExit() == 0)
    }

    /// Each bad setting stops the start with exactly one message, naming the setting, the value and where it came
    /// from (the argument parser's own errors add its usage lines after theirs).
    @Test(arguments: [
        (["--port", "eighty"], "invalid server.port 'eighty' (from --port): must be an integer from 0 to 65535"),
        (["--port", "65536"], "invalid server.port 65536 (from --port)"),
        (["--host", "nowhere"], "invalid server.host 'nowhere' (from --host)"),
        (["--threads", "0"], "invalid server.threads 0 (from --threads)"),
        (["--bogus"], "Unknown option '--bogus'"),
        (["--config", "/nonexistent/linkserver.json"], "cannot read config file /nonexistent/linkserver.json"),
        (["--links-port", "abc"], "invalid links.port 'abc' (from --links-port)"),
        (["--port", "80x"], "invalid server.port '80x' (from --port)"),
    ])
    func invalidSettingsExitWithCode2AndOneMessage(arguments: [String], message: String) throws {
        let server = try ServerProcess(arguments: arguments + ["--data-dir", TestServer.temporaryDirectory()])
        #expect(try server.waitForExit() == 2)
        let messages = server.log.split(separator: "\n").filter {
            $0.hasPrefix("LinkServer:") || $0.hasPrefix("Error:")
        }
        #expect(messages.count == 1, "\(server.log)")
        // A bad value is that one line and nothing else (an unknown flag also gets the usage).
        if message.hasPrefix("invalid ") { #expect(server.log.split(separator: "\n").count == 1, "\(server.log)") }
        #expect(messages.first?.contains(message) == true, "\(server.log)")
        #expect(!server.log.contains("listening"))
    }

    /// A config file is read only when named: started in the checkout, next to the quick start's
    /// config/linkserver.json (which configures example apps), the binary runs on the defaults.
    @Test func withoutAConfigFileTheDefaultsApply() throws {
        let server = try ServerProcess(
            arguments: [
                "--host", "127.0.0.1", "--port", "0", "--data-dir", TestServer.temporaryDirectory(), "--routes",
                "/nonexistent.json",
            ], directory: ServerProcess.packageRoot)
        try server.waitUntilListening()
        let links = HTTPClient(port: try server.waitForLinksPort())
        // No app by default (API.md §7): neither association file.
        #expect(try links.get("/.well-known/apple-app-site-association").status == 404)
        #expect(try links.get("/.well-known/assetlinks.json").status == 404)
        // The same in the same place with the quick start's file named: its example apps.
        let named = try ServerProcess(
            arguments: [
                "--host", "127.0.0.1", "--port", "0", "--data-dir", TestServer.temporaryDirectory(), "--routes",
                "/nonexistent.json", "--config", "config/linkserver.json",
            ], directory: ServerProcess.packageRoot)
        try named.waitUntilListening()
        #expect(try HTTPClient(port: try named.waitForLinksPort()).get("/.well-known/assetlinks.json").status == 200)
    }

    @Test func invalidEnvironmentExitsWithCode2() throws {
        let server = try ServerProcess(arguments: [], environment: ["LINK_PORT": "x"])
        #expect(try server.waitForExit() == 2)
        #expect(
            server.log.split(separator: "\n") == [
                "LinkServer: invalid server.port 'x' (from LINK_PORT): must be an integer from 0 to 65535"
            ])
    }

    @Test func aSecondProcessOnTheSameDataFolderExitsWithCode2() throws {
        let dataDir = TestServer.temporaryDirectory()
        let arguments = ["--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", "/nonexistent.json"]
        let first = try ServerProcess(arguments: arguments)
        try first.waitUntilListening()
        let second = try ServerProcess(arguments: arguments)
        #expect(try second.waitForExit() == 2)
        #expect(second.log.contains("in use by another LinkServer process (pid \(first.process.processIdentifier))"))
        #expect(!second.log.contains("listening"))
        // The lock dies with its process, even with kill -9: a new process takes the folder over.
        first.signal(SIGKILL)
        _ = try first.waitForExit()
        let third = try ServerProcess(arguments: arguments)
        try third.waitUntilListening()
        third.signal(SIGTERM)
        #expect(try third.waitForExit() == 0)
    }

    @Test func helpExitsZero() throws {
        let server = try ServerProcess(arguments: ["--help"])
        #expect(try server.waitForExit() == 0)
        #expect(server.log.contains("--data-dir"))
    }

    /// `--version` prints the build's version and exits 0; the `listening on` line carries it.
    @Test func versionIsPrintedAndLogged() throws {
        let version = try ServerProcess(arguments: ["--version"])
        #expect(try version.waitForExit() == 0)
        #expect(version.log.trimmingCharacters(in: .whitespacesAndNewlines) == BuildInfo.version)
        let server = try ServerProcess(arguments: ["--port", "0", "--data-dir", TestServer.temporaryDirectory()])
        try server.waitUntilListening()
        let line = server.log.split(separator: "\n").first { $0.contains(" listening on http://") } ?? ""
        #expect(line.contains("version=\(BuildInfo.version)"), "\(server.log)")
        server.signal(SIGTERM)
        #expect(try server.waitForExit() == 0)
    }
}
