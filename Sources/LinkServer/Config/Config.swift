import LinkCore
import Logging

/// The service's validated configuration, built once at start by ``ConfigLoader``.
struct Config: Sendable {
    var server = DaemonSettings()
    /// Seconds between SIGTERM and the listeners' stop during which `/readyz` answers 503 `stopping` and everything
    /// is still served, so that a load balancer stops sending first (`server.shutdownDelay`; a second signal ends it).
    var shutdownDelay = 0
    /// Seconds the requests in flight get to finish once the listeners stop taking connections
    /// (`server.shutdownGrace`).
    var shutdownGrace = 5
    /// Folder of the embedded database.
    var dataDir = "./data"
    /// `sqlite` (the embedded database in ``dataDir``) or a shared PostgreSQL database (API.md §12).
    var storage = StorageURL.sqlite
    /// Routes loaded at start as `source: "config"`; a missing file means no config routes.
    var routesFile = "config/routes.json"
    /// Maximum redirect hops per resolution (a request may lower it).
    var redirectLimit = 5
    /// The public listener (API.md §7).
    var links = LinksSettings()
    /// When set, `http(s)` locations must have one of these hosts.
    var linkHosts: [String]?
    /// The proxies whose `X-Forwarded-For` names the client on the links listener (`links.trustedProxies`).
    var trustedProxies = TrustedProxies()
    /// Events kept per subscription before the oldest are dropped.
    var eventsQueueLimit = 1000
    /// Open subscriptions allowed at once (beyond: 429).
    var maxSubscriptions = 10_000
    /// Event types registered at once, built-in ones included (beyond: 400).
    var eventsMaxTypes = 1000
    /// Entries in one subscription request (beyond: 400).
    var eventsMaxPerSubscription = 100
    /// Bearer token required for writes, when set.
    var adminToken: String?
    /// Bearer token required for reads, when set.
    var readToken: String?
    var logLevel: Logger.Level = .info
    /// `logging.format`: `text` (swift-log's lines) or `json` (one JSON object a line, ``JSONLogHandler``).
    var logFormat = LogFormat.text
    /// `LINK_` variables of the environment that name no setting: warned about at start (a typo is otherwise
    /// silently a default).
    var unusedVariables: [String] = []
    /// The level of the per-request access log line; `nil` turns it off.
    var accessLogLevel: Logger.Level? = .debug
}

/// How log lines are written (`logging.format`).
enum LogFormat: String, CaseIterable, Sendable {
    case text, json
}
