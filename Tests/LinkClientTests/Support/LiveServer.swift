import Foundation
import LinkCore
import LinkTestSupport
import Logging

@testable import LinkServer

/// A real LinkServer ``Application`` (libmicrohttpd, SQLite) in this process, on port 0 in a fresh data folder,
/// for the client to talk to over real HTTP.
final class LiveServer: @unchecked Sendable {
    // @unchecked: `application` changes only in `restart()`, which tests call from the one task that owns the
    // server; the client under test reaches the server over HTTP, never through this object.
    static let adminToken = "admin-secret"

    let dataDir: String
    private let settings: Settings
    private(set) var application: Application
    private(set) var port: UInt16

    struct Settings: Sendable {
        var adminToken: String? = LiveServer.adminToken
        var queueLimit = 1000
        var links = false
    }

    init(_ settings: Settings = Settings()) throws {
        self.settings = settings
        dataDir = TemporaryFolders.make("client")
        application = try LiveServer.start(settings, dataDir: dataDir, port: 0)
        port = application.port
    }

    /// The API listener's base URL.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// The public links listener's base URL (with `links: true`).
    var linksURL: URL { URL(string: "http://127.0.0.1:\(application.linksPort)")! }

    func stop() { application.shutdown() }

    /// Stops the server and starts it again on the same port and data folder (subscriptions are gone, everything
    /// stored stays).
    func restart() throws {
        application.shutdown()
        var lastError: (any Error)?
        for _ in 0..<100 {
            do {
                application = try LiveServer.start(settings, dataDir: dataDir, port: port)
                return
            } catch {
                lastError = error  // the port may take a moment to be free again
                usleep(50_000)
            }
        }
        throw lastError!
    }

    private static func start(_ settings: Settings, dataDir: String, port: UInt16) throws -> Application {
        var config = Config()
        config.server.port = port
        config.server.host = "127.0.0.1"
        config.server.threads = 2
        config.dataDir = dataDir
        config.routesFile = "/nonexistent/routes.json"
        config.accessLogLevel = nil
        config.adminToken = settings.adminToken
        config.eventsQueueLimit = settings.queueLimit
        config.links.port = 0
        if settings.links {
            // Clicks from 127.0.0.1 count as on the service's own host; Android people go to Google Play.
            config.linkHosts = ["127.0.0.1"]
            config.links.webURL = try LinksSettings.urlTemplate("https://www.example.com{location}", field: "webURL")
            config.links.ios = try LinksSettings.iosApp(
                appIDs: ["ABCDE12345.com.example.app"], scheme: nil,
                storeURL: "https://apps.apple.com/app/id123456789", landingPage: nil, webcredentials: nil)
            config.links.android = try LinksSettings.androidApp(
                package: "com.example.app", scheme: nil,
                fingerprints: ["146de983c5730650d8eeb9952f34fc6416a08342e61dbea88a0496b23fcf44e5"],
                storeURL: "https://play.google.com/store/apps/details?id=com.example.app")
        } else {
            config.links.enabled = false
        }
        var logger = Logger(label: "linkclient-test")
        logger.logLevel = .critical
        let application = try Application(config: config, logger: logger)
        try application.start()
        return application
    }

}

/// Runs `body` against a fresh server and always stops it.
func withLiveServer<T>(_ settings: LiveServer.Settings = .init(), _ body: (LiveServer) async throws -> T) async throws
    -> T
{
    let server = try LiveServer(settings)
    defer { server.stop() }
    return try await body(server)
}
