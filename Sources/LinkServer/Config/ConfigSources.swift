import Configuration
import LinkCore

/// The providers of the settings, highest first: the command line, the environment (`LINK_` + the key, then the
/// short names of ``environmentAliases``), the JSON config file, the defaults. Each also says where its value of
/// a key came from, for messages: `--port`, `LINK_PORT`, the file's path.
struct ConfigSources: Sendable {
    /// Where a value came from, and the value as written there.
    struct Origin: Sendable, Equatable {
        var name: String
        var value: String
    }

    /// One provider, and how to find the origin of a value it holds.
    struct Source: Sendable {
        var provider: any ConfigProvider
        /// Whether this is one of the environment's providers (whose booleans also read `yes`, `no`, `1`, `0`).
        var isEnvironment = false
        var locate: @Sendable (AbsoluteConfigKey) -> Origin?
    }

    /// The environment's short names, older than the derived ones (`LINK_HOST` as well as `LINK_SERVER_HOST`).
    /// `links.port` and `storage.url` need none: their derived names are their contract names.
    static let environmentAliases: [AbsoluteConfigKey: String] = [
        "server.host": "LINK_HOST", "server.port": "LINK_PORT", "server.threads": "LINK_THREADS",
        "server.headerTimeout": "LINK_HEADER_TIMEOUT", "server.bodyTimeout": "LINK_BODY_TIMEOUT",
        "server.connectionLimitPerAddress": "LINK_CONNECTION_LIMIT_PER_ADDRESS", "storage.dataDir": "LINK_DATA_DIR",
        "routing.routesFile": "LINK_ROUTES", "auth.adminToken": "LINK_ADMIN_TOKEN",
        "auth.readToken": "LINK_READ_TOKEN", "logging.level": "LINK_LOG_LEVEL",
    ]

    let sources: [Source]
    /// The config file, when one was read; ``ConfigLoader`` checks its keys.
    let file: JSONFileProvider?
    /// The environment, to tell which `LINK_` variables name no setting (``unusedVariables(known:)``).
    private let environment: [String: String]

    init(
        commandLine: CommandLineSettings, environment: [String: String], file: JSONFileProvider?,
        defaults: [AbsoluteConfigKey: ConfigValue]
    ) {
        let (derived, aliases) = Self.environmentProviders(environment)
        self.environment = environment
        var sources = [
            Source(provider: commandLine.provider) { key in commandLine.origin(of: key) },
            Source(provider: derived, isEnvironment: true) { key in Self.environmentOrigin(of: key, in: derived) },
            Source(provider: aliases, isEnvironment: true) { key in Self.environmentOrigin(of: key, in: aliases) },
        ]
        if let file {
            sources.append(
                Source(provider: file) { key in
                    file.values[key].map { Origin(name: file.path, value: Self.describe($0)) }
                })
        }
        sources.append(
            Source(provider: InMemoryProvider(name: "defaults", values: defaults)) { key in
                defaults[key].map { Origin(name: "defaults", value: Self.describe($0.content)) }
            })
        self.sources = sources
        self.file = file
    }

    /// A reader over the providers, highest first.
    var reader: ConfigReader { ConfigReader(providers: sources.map(\.provider)) }

    /// The `LINK_` variables of the environment that name no setting of `known` (a typo, or a derived name split
    /// differently: `LINK_SERVER_MAX_URI_BYTES` for `LINK_SERVER_MAX_URIBYTES`), sorted. `LINK_CONFIG` names the
    /// file; the project's build and test switches (`LINK_WARNINGS_AS_ERRORS`, `LINK_CLIENT_ONLY`, `LINK_TSAN…`,
    /// `LINK_TEST_…`) are not the server's and are left alone.
    func unusedVariables(known: Set<String>) -> [String] {
        var used: Set<String> = ["LINK_CONFIG", "LINK_WARNINGS_AS_ERRORS", "LINK_CLIENT_ONLY"]
        // Looked up with every value made non-empty: a variable set to nothing still names its setting.
        let (derived, aliases) = Self.environmentProviders(environment.mapValues { _ in "set" })
        for key in known {
            let absolute = AbsoluteConfigKey(ConfigKey(key))
            for provider in [derived, aliases] as [any ConfigProvider] {
                if let result = try? provider.value(forKey: absolute, type: .string), result.value != nil {
                    used.insert(result.encodedKey)
                }
            }
        }
        return environment.keys.filter { name in
            name.hasPrefix("LINK_") && !used.contains(name) && !name.hasPrefix("LINK_TEST_")
                && !name.hasPrefix("LINK_TSAN")
        }.sorted()
    }

    /// The environment read two ways: by derived names (`server.port` → `LINK_SERVER_PORT`: camelCase becomes
    /// `_`-separated words, `LINK_LINKS_WEB_URL`) and by the contract's short names (a key without one maps to the
    /// empty name, which no environment holds).
    private static func environmentProviders(_ environment: [String: String]) -> (
        derived: some ConfigProvider, aliases: some ConfigProvider
    ) {
        let variables = EnvironmentVariablesProvider(environmentVariables: environment)
        return (
            variables.prefixKeys(with: "link"),
            variables.mapKeys { key in AbsoluteConfigKey(Self.environmentAliases[key].map { [$0] } ?? []) }
        )
    }

    /// Where the value a reader gets for `key` comes from; `nil` when no provider holds it.
    func origin(of key: AbsoluteConfigKey) -> Origin? {
        for source in sources {
            if let origin = source.locate(key) { return origin }
        }
        return nil
    }

    /// Whether the value a reader gets for `key` comes from the environment.
    func isFromEnvironment(_ key: AbsoluteConfigKey) -> Bool {
        sources.first { $0.locate(key) != nil }?.isEnvironment == true
    }

    /// The variable holding `key` (its name is the lookup's encoded key) and its text.
    private static func environmentOrigin(of key: AbsoluteConfigKey, in provider: some ConfigProvider) -> Origin? {
        guard let result = try? provider.value(forKey: key, type: .string),
            case .string(let text)? = result.value?.content
        else { return nil }
        return Origin(name: result.encodedKey, value: "'\(text)'")
    }

    static func describe(_ value: JSONValue) -> String {
        if case .string(let text) = value { return "'\(text)'" }
        return value.encodedString()
    }

    static func describe(_ content: ConfigContent) -> String {
        switch content {
        case .string(let text): "'\(text)'"
        case .int(let number): String(number)
        case .bool(let flag): String(flag)
        case .stringArray(let items): JSONValue.array(items.map(JSONValue.string)).encodedString()
        default: "\(content)"
        }
    }
}
