import LinkCore

/// One layer of settings (defaults < file < environment < command line), flattened to dotted keys.
struct ConfigSource {
    /// Where the values come from, for error messages: `--port`, `LINK_PORT`, `config/linkserver.json`.
    var values: [String: (value: JSONValue, origin: String)] = [:]

    /// The environment variables read, and the setting each one sets.
    static let environmentKeys: [(variable: String, key: String)] = [
        ("LINK_HOST", "server.host"), ("LINK_PORT", "server.port"), ("LINK_THREADS", "server.threads"),
        ("LINK_HEADER_TIMEOUT", "server.headerTimeout"), ("LINK_BODY_TIMEOUT", "server.bodyTimeout"),
        ("LINK_CONNECTION_LIMIT_PER_ADDRESS", "server.connectionLimitPerAddress"),
        ("LINK_DATA_DIR", "storage.dataDir"), ("LINK_ROUTES", "routing.routesFile"),
        ("LINK_ADMIN_TOKEN", "auth.adminToken"), ("LINK_READ_TOKEN", "auth.readToken"),
        ("LINK_LOG_LEVEL", "logging.level"), ("LINK_LINKS_PORT", "links.port"),
        ("LINK_STORAGE_URL", "storage.url"),
    ]

    /// The settings from environment variables named in ``environmentKeys``.
    static func environment(_ environment: [String: String]) -> ConfigSource {
        var source = ConfigSource()
        for (variable, key) in environmentKeys {
            if let value = environment[variable] { source.values[key] = (.string(value), variable) }
        }
        return source
    }

    /// The settings of a JSON config file: nested objects become dotted keys; unknown keys are an error.
    static func file(_ bytes: [UInt8], path: String) throws(ConfigError) -> ConfigSource {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ConfigError("config file \(path) is not valid JSON: \(error)")
        }
        guard case .object(let sections) = root else {
            throw ConfigError("config file \(path) must hold a JSON object")
        }
        var source = ConfigSource()
        for (section, body) in sections {
            guard case .object(let members) = body else {
                throw ConfigError("config file \(path): '\(section)' must be an object")
            }
            for (name, value) in members {
                let key = section + "." + name
                guard ConfigLoader.knownKeys.contains(key) else {
                    throw ConfigError("config file \(path): unknown setting '\(key)'")
                }
                source.values[key] = (value, path)
            }
        }
        return source
    }

    /// Overlays `other` on top of this layer.
    mutating func overlay(_ other: ConfigSource) {
        values.merge(other.values) { _, new in new }
    }
}
