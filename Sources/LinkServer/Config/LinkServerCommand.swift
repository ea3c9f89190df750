import ArgumentParser
import LinkCore

/// The command line: `LinkServer [--host H] [--port P] [--data-dir D] [--routes F] [--config F] ...`.
struct LinkServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "LinkServer",
        abstract: "A self-hostable deep-link resolution service.",
        discussion: """
            Settings are taken from, highest first: these flags, environment variables (LINK_HOST, LINK_PORT, \
            LINK_DATA_DIR, LINK_ROUTES, LINK_ADMIN_TOKEN, LINK_READ_TOKEN, LINK_THREADS, LINK_LOG_LEVEL, \
            LINK_HEADER_TIMEOUT, LINK_BODY_TIMEOUT, LINK_CONNECTION_LIMIT_PER_ADDRESS, LINK_LINKS_PORT, \
            LINK_STORAGE_URL, LINK_CONFIG), the JSON \
            config file, and built-in defaults.
            """)

    @Option(help: "Address to listen on (IPv4 or IPv6). Default 0.0.0.0.")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one. Default 8080.")
    var port: String?

    @Option(name: .customLong("data-dir"), help: "Folder of the embedded database. Default ./data.")
    var dataDir: String?

    @Option(
        name: .customLong("storage-url"),
        help: "sqlite (default) or postgres://user[:password]@host[:port]/database, shared by several instances.")
    var storageURL: String?

    @Option(help: "Routes file loaded at start (read-only routes). Default config/routes.json; may be absent.")
    var routes: String?

    @Option(help: "JSON config file. Default config/linkserver.json when present.")
    var config: String?

    @Option(help: "Worker threads. Default: the number of cores (at least 2).")
    var threads: String?

    @Option(
        name: .customLong("header-timeout"),
        help:
            "Seconds a connection has to send a whole request head (from accept, or the previous response). Default 10."
    )
    var headerTimeout: String?

    @Option(name: .customLong("body-timeout"), help: "Seconds from a request head to the end of its body. Default 60.")
    var bodyTimeout: String?

    @Option(
        name: .customLong("connection-limit-per-address"),
        help: "Connections one client address may hold at once; 0 for no limit. Default 1000.")
    var connectionLimitPerAddress: String?

    @Option(
        name: .customLong("links-port"), help: "Port of the public links listener; 0 picks a free one. Default 8081.")
    var linksPort: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    /// The flags given, as the highest-precedence configuration layer.
    var commandLineSource: ConfigSource {
        var source = ConfigSource()
        let flags: [(String?, String, String)] = [
            (host, "server.host", "--host"), (port, "server.port", "--port"),
            (dataDir, "storage.dataDir", "--data-dir"), (storageURL, "storage.url", "--storage-url"),
            (routes, "routing.routesFile", "--routes"),
            (threads, "server.threads", "--threads"), (logLevel, "logging.level", "--log-level"),
            (headerTimeout, "server.headerTimeout", "--header-timeout"),
            (bodyTimeout, "server.bodyTimeout", "--body-timeout"), (linksPort, "links.port", "--links-port"),
            (connectionLimitPerAddress, "server.connectionLimitPerAddress", "--connection-limit-per-address"),
        ]
        for (value, key, flag) in flags {
            if let value { source.values[key] = (.string(value), flag) }
        }
        return source
    }
}
