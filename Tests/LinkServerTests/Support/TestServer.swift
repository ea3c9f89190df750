import Foundation
import LinkCore
import LinkTestSupport
import Logging

@testable import LinkServer

/// A real ``Application`` (libmicrohttpd daemon, SQLite store) on port 0 in a fresh temporary data folder.
final class TestServer {
    let application: Application
    let dataDir: String
    var port: UInt16 { application.port }

    /// Starts a server; `configure` adjusts the defaults (port 0, temp data dir, no routes file).
    init(dataDir: String? = nil, _ configure: (inout Config) -> Void = { _ in }) throws {
        self.dataDir = dataDir ?? TestServer.temporaryDirectory()
        var config = Config()
        config.server.port = 0
        config.links.port = 0
        config.server.host = "127.0.0.1"
        config.server.threads = 2
        config.dataDir = self.dataDir
        config.routesFile = "/nonexistent/routes.json"
        config.accessLogLevel = nil
        configure(&config)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        application = try Application(config: config, logger: logger)
        try application.start()
    }

    func stop() { application.shutdown() }

    /// A new client connected to this server.
    func client() -> HTTPClient { HTTPClient(port: port) }

    /// A new empty folder, removed when the test process exits.
    static func temporaryDirectory() -> String { TemporaryFolders.make("server") }
}

/// Runs `body` against a fresh server and always stops it.
func withServer<T>(
    dataDir: String? = nil, _ configure: (inout Config) -> Void = { _ in }, _ body: (TestServer) throws -> T
) throws -> T {
    let server = try TestServer(dataDir: dataDir, configure)
    defer { server.stop() }
    return try body(server)
}
