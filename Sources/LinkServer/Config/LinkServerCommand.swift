import ArgumentParser
import Configuration
import LinkCore

/// The command line: `LinkServer [--host H] [--port P] [--data-dir D] [--routes F] [--config F] ...`.
///
/// The options are declared here for help and type checks, and handed to the configuration as its highest provider
/// (``commandLine``), as swift-configuration's guide for swift-argument-parser shows. They have no default values:
/// a default here would hide the environment and the file.
struct LinkServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "LinkServer",
        abstract: "A self-hostable deep-link resolution service.",
        discussion: """
            Settings are taken from, highest first: these flags, environment variables, the JSON config file \
            (LINK_CONFIG or --config; none when neither is given), and built-in defaults. Every setting \
            of the file can be given as LINK_ and its key in capitals (server.headerTimeout: \
            LINK_SERVER_HEADER_TIMEOUT); the short names LINK_HOST, LINK_PORT, LINK_THREADS, LINK_DATA_DIR, \
            LINK_ROUTES, LINK_ADMIN_TOKEN, LINK_READ_TOKEN, LINK_LOG_LEVEL, LINK_HEADER_TIMEOUT, LINK_BODY_TIMEOUT \
            and LINK_CONNECTION_LIMIT_PER_ADDRESS work too.
            """,
        // `--version` (no short `-v`).
        version: BuildInfo.version)

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

    @Option(help: "JSON config file (the quick start's is config/linkserver.json). Default: none.")
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

    /// A number flag's text as the setting reads it: an integer as such, anything else as the text, which the
    /// setting then refuses in the one message every bad value gets (`invalid server.port 'abc' (from --port): …`)
    /// rather than in the argument parser's own lines and usage.
    static func number(_ text: String?) -> ConfigContent? {
        text.map { Int($0).map(ConfigContent.int) ?? .string($0) }
    }

    /// The flags given, by the setting each one sets.
    var commandLine: CommandLineSettings {
        CommandLineSettings([
            ("server.host", "--host", host.map(ConfigContent.string)),
            ("server.port", "--port", LinkServerCommand.number(port)),
            ("server.threads", "--threads", LinkServerCommand.number(threads)),
            ("server.headerTimeout", "--header-timeout", LinkServerCommand.number(headerTimeout)),
            ("server.bodyTimeout", "--body-timeout", LinkServerCommand.number(bodyTimeout)),
            (
                "server.connectionLimitPerAddress", "--connection-limit-per-address",
                LinkServerCommand.number(connectionLimitPerAddress)
            ),
            ("storage.dataDir", "--data-dir", dataDir.map(ConfigContent.string)),
            ("storage.url", "--storage-url", storageURL.map(ConfigContent.string)),
            ("routing.routesFile", "--routes", routes.map(ConfigContent.string)),
            ("links.port", "--links-port", LinkServerCommand.number(linksPort)),
            ("logging.level", "--log-level", logLevel.map(ConfigContent.string)),
        ])
    }
}

/// The settings given as flags: the highest provider, and the flag that set each key, for messages.
struct CommandLineSettings: Sendable {
    private var flags: [AbsoluteConfigKey: String] = [:]
    private var values: [AbsoluteConfigKey: ConfigValue] = [:]

    /// No flags.
    init() {}

    /// Settings from `(key, flag, value)`; a `nil` value is a flag not given.
    init(_ settings: [(key: AbsoluteConfigKey, flag: String, value: ConfigContent?)]) {
        for (key, flag, value) in settings {
            guard let value else { continue }
            flags[key] = flag
            values[key] = ConfigValue(value, isSecret: false)
        }
    }

    var provider: InMemoryProvider { InMemoryProvider(name: "command line", values: values) }

    /// The value given for `key`, if any.
    func value(of key: AbsoluteConfigKey) -> ConfigContent? { values[key]?.content }

    func origin(of key: AbsoluteConfigKey) -> ConfigSources.Origin? {
        guard let flag = flags[key], let value = values[key] else { return nil }
        return ConfigSources.Origin(name: flag, value: ConfigSources.describe(value.content))
    }
}
