import Foundation
import LinkCore
import Logging

/// Builds the one validated ``Config`` from command line > environment > config file > defaults.
enum ConfigLoader {
    /// The default config file, read when present and `--config` is not given.
    static let defaultFile = "config/linkserver.json"

    static let knownKeys: Set<String> = [
        "server.host", "server.port", "server.threads", "server.connectionLimit", "server.connectionTimeout",
        "server.headerTimeout", "server.bodyTimeout", "server.connectionLimitPerAddress",
        "server.connectionMemoryLimit", "server.maxBodyBytes", "server.maxURIBytes", "storage.dataDir", "storage.url",
        "routing.routesFile", "routing.redirectLimit", "links.hosts", "links.enabled", "links.port", "links.webURL",
        "links.notFoundURL", "links.redirectStatus", "links.deferredTTL", "links.appRateLimit", "links.siteName",
        "links.preview", "links.faviconURL", "links.robotsTxt", "links.apps", "events.queueLimit",
        "events.maxSubscriptions",
        "events.maxTypes", "events.maxPerSubscription",
        "auth.adminToken", "auth.readToken", "logging.level", "logging.accessLog",
    ]

    /// Loads the configuration. `commandLine` holds the settings given as flags, `configFile` the `--config` path.
    static func load(
        commandLine: ConfigSource, configFile: String?, environment: [String: String],
        processors: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(ConfigError) -> Config {
        var merged = ConfigSource()
        let path = configFile ?? environment["LINK_CONFIG"]
        if let path {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigError("cannot read config file \(path)")
            }
            merged.overlay(try ConfigSource.file(Array(data), path: path))
        } else if let data = FileManager.default.contents(atPath: defaultFile) {
            merged.overlay(try ConfigSource.file(Array(data), path: defaultFile))
        }
        merged.overlay(.environment(environment))
        merged.overlay(commandLine)
        return try build(from: merged, processors: processors)
    }

    static func build(from source: ConfigSource, processors: Int) throws(ConfigError) -> Config {
        let reader = SettingReader(source: source)
        var config = Config()
        config.server.threads = max(2, processors)
        try reader.string("server.host") { config.server.host = $0 }
        try reader.int("server.port", 0...65535) { config.server.port = UInt16($0) }
        try reader.int("server.threads", 1...256) { config.server.threads = $0 }
        try reader.int("server.connectionLimit", 1...1_000_000) { config.server.connectionLimit = $0 }
        try reader.int("server.connectionTimeout", 1...3600) { config.server.connectionTimeout = $0 }
        try reader.int("server.headerTimeout", 1...3600) { config.server.headerTimeout = $0 }
        try reader.int("server.bodyTimeout", 1...3600) { config.server.bodyTimeout = $0 }
        try reader.int("server.connectionLimitPerAddress", 0...1_000_000) {
            config.server.connectionLimitPerAddress = $0
        }
        try reader.int("server.connectionMemoryLimit", 4096...(16 << 20)) { config.server.connectionMemoryLimit = $0 }
        try reader.int("server.maxBodyBytes", 1...(1 << 30)) { config.server.maxBodyBytes = $0 }
        try reader.int("server.maxURIBytes", 256...(1 << 20)) { config.server.maxURIBytes = $0 }
        try reader.string("storage.dataDir") { config.dataDir = $0 }
        var storage: String?
        try reader.string("storage.url") { storage = $0 }
        if let storage {
            do {
                config.storage = try StorageURL(parsing: storage)
            } catch {
                throw ConfigError("\(error.description) (from \(reader.origin("storage.url")))")
            }
        }
        try reader.string("routing.routesFile") { config.routesFile = $0 }
        try reader.int("routing.redirectLimit", 0...100) { config.redirectLimit = $0 }
        try reader.stringArray("links.hosts") { config.linkHosts = $0.map { $0.lowercased() } }
        try readLinks(reader, into: &config.links)
        try reader.int("events.queueLimit", 1...1_000_000) { config.eventsQueueLimit = $0 }
        try reader.int("events.maxSubscriptions", 1...1_000_000) { config.maxSubscriptions = $0 }
        try reader.int("events.maxTypes", 2...100_000) { config.eventsMaxTypes = $0 }
        try reader.int("events.maxPerSubscription", 1...10_000) { config.eventsMaxPerSubscription = $0 }
        try reader.string("auth.adminToken") { config.adminToken = $0 }
        try reader.string("auth.readToken") { config.readToken = $0 }
        try reader.level("logging.level", allowOff: false) { config.logLevel = $0 ?? .info }
        try reader.level("logging.accessLog", allowOff: true) { config.accessLogLevel = $0 }
        if BindAddressCheck.isNumeric(config.server.host) == false {
            let origin = source.values["server.host"]?.origin ?? "defaults"
            throw ConfigError(
                "invalid server.host '\(config.server.host)' (from \(origin)): must be an IPv4 or IPv6 address")
        }
        // The request line and headers live in the connection's memory pool: it must hold the longest target.
        let needed = config.server.maxURIBytes + 4096
        if config.server.connectionMemoryLimit < needed {
            config.server.connectionMemoryLimit = needed
        }
        return config
    }
}

extension ConfigLoader {
    /// Reads the `links.*` settings (API.md §7).
    fileprivate static func readLinks(_ reader: SettingReader, into links: inout LinksSettings) throws(ConfigError) {
        try reader.bool("links.enabled") { links.enabled = $0 }
        try reader.int("links.port", 0...65535) { links.port = UInt16($0) }
        try reader.int("links.redirectStatus", 301...308) { links.redirectStatus = $0 }
        if ![301, 302, 307, 308].contains(links.redirectStatus) {
            throw reader.fail(
                "links.redirectStatus", reader.origin("links.redirectStatus"), "301, 302, 307 or 308",
                .int(links.redirectStatus))
        }
        try reader.int("links.deferredTTL", 60...(90 * 86_400)) { links.deferredTTL = $0 }
        try reader.int("links.appRateLimit", 1...1_000_000) { links.appRateLimit = $0 }
        try reader.string("links.siteName") { links.siteName = $0 }
        try reader.nullableString("links.robotsTxt") { links.robotsTxt = $0 }
        try reader.checked("links.webURL") { value throws(LinkError) in
            links.webURL = try LinksSettings.urlTemplate(try reader.text(value, "links.webURL"), field: "links.webURL")
        }
        try reader.checked("links.notFoundURL") { value throws(LinkError) in
            links.notFoundURL = try LinksSettings.plainURL(
                try reader.text(value, "links.notFoundURL"), field: "links.notFoundURL")
        }
        try reader.checked("links.faviconURL") { value throws(LinkError) in
            links.faviconURL = try LinksSettings.plainURL(
                try reader.text(value, "links.faviconURL"), field: "links.faviconURL")
        }
        try reader.checked("links.preview") { value throws(LinkError) in
            links.preview = try LinksSettings.preview(value)
        }
        try reader.checked("links.apps") { value throws(LinkError) in
            try LinksSettings.apps(value, into: &links)
        }
    }
}

/// Reads typed settings out of a merged ``ConfigSource``, with messages naming where a bad value came from.
private struct SettingReader {
    let source: ConfigSource

    func fail(_ key: String, _ origin: String, _ expected: String, _ value: JSONValue) -> ConfigError {
        ConfigError("invalid \(key) \(describe(value)) (from \(origin)): must be \(expected)")
    }

    func origin(_ key: String) -> String { source.values[key]?.origin ?? "defaults" }

    func bool(_ key: String, _ apply: (Bool) -> Void) throws(ConfigError) {
        guard let (value, origin) = source.values[key] else { return }
        switch value {
        case .bool(let flag): apply(flag)
        case .string("true"): apply(true)
        case .string("false"): apply(false)
        default: throw fail(key, origin, "true or false", value)
        }
    }

    func nullableString(_ key: String, _ apply: (String?) -> Void) throws(ConfigError) {
        guard let (value, origin) = source.values[key] else { return }
        switch value {
        case .null: apply(nil)
        case .string(let text): apply(text)
        default: throw fail(key, origin, "a string or null", value)
        }
    }

    /// The text of a string setting, for ``checked(_:_:)``.
    func text(_ value: JSONValue, _ key: String) throws(LinkError) -> String {
        guard case .string(let text) = value, !text.isEmpty else {
            throw LinkError.invalidSetting(key, value: value.encodedString(), reason: "must be a non-empty string")
        }
        return text
    }

    /// Runs a domain check on a setting (absent or null: skipped); its error stops the start naming the origin.
    func checked(_ key: String, _ apply: (JSONValue) throws(LinkError) -> Void) throws(ConfigError) {
        guard let (value, origin) = source.values[key], !value.isNull else { return }
        do {
            try apply(value)
        } catch {
            throw ConfigError("invalid setting: \(error.message) (from \(origin))")
        }
    }

    func describe(_ value: JSONValue) -> String {
        if case .string(let s) = value { return "'\(s)'" }
        return value.encodedString()
    }

    func string(_ key: String, _ apply: (String) -> Void) throws(ConfigError) {
        guard let (value, origin) = source.values[key] else { return }
        guard case .string(let s) = value, !s.isEmpty else { throw fail(key, origin, "a non-empty string", value) }
        apply(s)
    }

    func int(_ key: String, _ range: ClosedRange<Int>, _ apply: (Int) -> Void) throws(ConfigError) {
        guard let (value, origin) = source.values[key] else { return }
        let number: Int?
        switch value {
        case .int(let i): number = i
        case .string(let s): number = Int(s)
        default: number = nil
        }
        guard let number, range.contains(number) else {
            throw fail(key, origin, "an integer from \(range.lowerBound) to \(range.upperBound)", value)
        }
        apply(number)
    }

    func stringArray(_ key: String, _ apply: ([String]) -> Void) throws(ConfigError) {
        guard let (value, origin) = source.values[key] else { return }
        guard case .array(let items) = value else { throw fail(key, origin, "an array of strings", value) }
        var strings: [String] = []
        for item in items {
            guard case .string(let s) = item, !s.isEmpty else { throw fail(key, origin, "an array of strings", value) }
            strings.append(s)
        }
        apply(strings)
    }

    func level(_ key: String, allowOff: Bool, _ apply: (Logger.Level?) -> Void) throws(ConfigError) {
        guard let (value, origin) = source.values[key] else { return }
        let names = Logger.Level.allCases.map(\.rawValue) + (allowOff ? ["off"] : [])
        guard case .string(let s) = value, names.contains(s.lowercased()) else {
            throw fail(key, origin, "one of " + names.joined(separator: ", "), value)
        }
        apply(Logger.Level(rawValue: s.lowercased()))
    }
}

/// Checks a host string the way ``BindAddress`` will parse it.
enum BindAddressCheck {
    static func isNumeric(_ host: String) -> Bool {
        (try? BindAddress(host: host, port: 0)) != nil
    }
}
