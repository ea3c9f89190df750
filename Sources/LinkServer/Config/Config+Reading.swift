import Configuration
import LinkCore
import Logging

extension Config {
    /// Reads and validates every setting. Keys, with the flag where the contract names one; every key is also read
    /// from the environment as `LINK_` + the key in capitals (`links.webURL`: `LINK_LINKS_WEB_URL`; arrays separated
    /// by commas), and the older short names of ``ConfigSources/environmentAliases`` still work:
    ///
    /// - `server.host` (`--host`, `LINK_HOST`), `server.port` (`--port`, `LINK_PORT`), `server.threads`
    ///   (`--threads`, `LINK_THREADS`), `server.connectionLimit`, `server.connectionTimeout`,
    ///   `server.headerTimeout` (`--header-timeout`, `LINK_HEADER_TIMEOUT`), `server.bodyTimeout`
    ///   (`--body-timeout`, `LINK_BODY_TIMEOUT`), `server.connectionLimitPerAddress`
    ///   (`--connection-limit-per-address`, `LINK_CONNECTION_LIMIT_PER_ADDRESS`), `server.connectionMemoryLimit`,
    ///   `server.maxBodyBytes`, `server.maxURIBytes`, `server.shutdownDelay`, `server.shutdownGrace`
    /// - `storage.dataDir` (`--data-dir`, `LINK_DATA_DIR`), `storage.url` (`--storage-url`, `LINK_STORAGE_URL`;
    ///   secret: it may hold a password)
    /// - `routing.routesFile` (`--routes`, `LINK_ROUTES`), `routing.redirectLimit`
    /// - `links.enabled`, `links.port` (`--links-port`, `LINK_LINKS_PORT`), `links.hosts`, `links.webURL`,
    ///   `links.notFoundURL`, `links.redirectStatus`, `links.deferredTTL`, `links.appRateLimit`,
    ///   `links.tokenRateLimit`, `links.maxDeferredTokens`, `links.bufferedClicks`, `links.siteName`,
    ///   `links.preview.title`, `links.preview.description`, `links.preview.image`, `links.faviconURL`,
    ///   `links.robotsTxt`, `links.trustedProxies`
    /// - `links.apps.ios.appIDs`, `.scheme`, `.storeURL`, `.landingPage`, `.webcredentials`;
    ///   `links.apps.android.package`, `.scheme`, `.sha256CertFingerprints`, `.storeURL`
    /// - `events.queueLimit`, `events.maxSubscriptions`, `events.maxTypes`, `events.maxPerSubscription`
    /// - `auth.adminToken` (`LINK_ADMIN_TOKEN`), `auth.readToken` (`LINK_READ_TOKEN`); both secret
    /// - `logging.level` (`--log-level`, `LINK_LOG_LEVEL`), `logging.accessLog`, `logging.format`
    ///
    /// A new setting is one read here (and its default in ``defaults(processors:)``, if it has one), plus an option
    /// in ``LinkServerCommand`` where the contract names a flag. Every key is read unconditionally: the keys read
    /// are the ones the config file may hold.
    init(reader: SettingReader) throws(ConfigError) {
        self.init()
        server.host = try reader.string("server.host")
        guard BindAddressCheck.isNumeric(server.host) else {
            throw reader.invalid("server.host", "an IPv4 or IPv6 address")
        }
        server.port = try UInt16(reader.int("server.port", in: 0...65535))
        server.threads = try reader.int("server.threads", in: 1...256)
        server.connectionLimit = try reader.int("server.connectionLimit", in: 1...1_000_000)
        server.connectionTimeout = try reader.int("server.connectionTimeout", in: 1...3600)
        server.headerTimeout = try reader.int("server.headerTimeout", in: 1...3600)
        server.bodyTimeout = try reader.int("server.bodyTimeout", in: 1...3600)
        server.connectionLimitPerAddress = try reader.int("server.connectionLimitPerAddress", in: 0...1_000_000)
        server.connectionMemoryLimit = try reader.int("server.connectionMemoryLimit", in: 4096...(16 << 20))
        server.maxBodyBytes = try reader.int("server.maxBodyBytes", in: 1...(1 << 30))
        server.maxURIBytes = try reader.int("server.maxURIBytes", in: 256...(1 << 20))
        // The request line and headers live in the connection's memory pool: it must hold the longest target.
        server.connectionMemoryLimit = max(server.connectionMemoryLimit, server.maxURIBytes + 4096)
        shutdownDelay = try reader.int("server.shutdownDelay", in: 0...3600)
        shutdownGrace = try reader.int("server.shutdownGrace", in: 0...3600)
        dataDir = try reader.string("storage.dataDir")
        let storageURL = try reader.string("storage.url", isSecret: true)
        do {
            storage = try StorageURL(parsing: storageURL)
        } catch {
            throw ConfigError("\(error.description) (from \(reader.origin("storage.url")))")
        }
        routesFile = try reader.string("routing.routesFile")
        redirectLimit = try reader.int("routing.redirectLimit", in: 0...100)
        linkHosts = try reader.optionalStrings("links.hosts")?.map { $0.lowercased() }
        if let linkHosts, linkHosts.isEmpty || !linkHosts.allSatisfy(HostAllowList.isValidEntry) {
            // A list that can match no `Host` would answer 404 to every request of the links listener.
            throw reader.invalid(
                "links.hosts",
                "a non-empty list of host names (`links.example.com`, `*.example.com`), without scheme, port or path")
        }
        let networks = try reader.optionalStrings("links.trustedProxies")?.map { text throws(ConfigError) in
            guard let network = IPNetwork(text) else {
                throw reader.invalid("links.trustedProxies", "addresses or networks (`10.0.0.0/8`, `::1`)")
            }
            return network
        }
        trustedProxies = TrustedProxies(networks ?? [])
        links = try LinksSettings(reader: reader)
        if links.enabled && links.port != 0 && links.port == server.port {
            // Both listeners bind `server.host`: one port would be refused at start, or (with a socket option
            // that shares ports) split its connections between the API and the public listener.
            throw reader.invalid("links.port", "another port than server.port \(server.port)")
        }
        eventsQueueLimit = try reader.int("events.queueLimit", in: 1...1_000_000)
        maxSubscriptions = try reader.int("events.maxSubscriptions", in: 1...1_000_000)
        eventsMaxTypes = try reader.int("events.maxTypes", in: 2...100_000)
        eventsMaxPerSubscription = try reader.int("events.maxPerSubscription", in: 1...10_000)
        adminToken = try reader.optionalString("auth.adminToken", isSecret: true)
        readToken = try reader.optionalString("auth.readToken", isSecret: true)
        // A token read from a file often ends with its line end; a client never sends it, so every request would be
        // 401 with no word why. Refused at start instead.
        for (key, token) in [("auth.adminToken", adminToken), ("auth.readToken", readToken)] {
            if let token,
                token.unicodeScalars.contains(where: {
                    $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
                })
            {
                throw reader.invalid(
                    key, "a token without spaces, line ends or other control characters", isSecret: true)
            }
        }
        logLevel = try reader.level("logging.level", allowOff: false) ?? .info
        let format = try reader.string("logging.format")
        guard let logFormat = LogFormat(rawValue: format) else {
            throw reader.invalid("logging.format", "text or json")
        }
        self.logFormat = logFormat
        accessLogLevel = try reader.level("logging.accessLog", allowOff: true)
    }

    /// The lowest provider: the built-in value of every setting that has one (``Config``'s own initial values), so
    /// that each is read as required and a bad value is never replaced by a default.
    static func defaults(processors: Int) -> [AbsoluteConfigKey: ConfigValue] {
        let base = Config()
        let values: [AbsoluteConfigKey: ConfigContent] = [
            "server.host": .string(base.server.host), "server.port": .int(Int(base.server.port)),
            "server.threads": .int(max(2, processors)), "server.connectionLimit": .int(base.server.connectionLimit),
            "server.connectionTimeout": .int(base.server.connectionTimeout),
            "server.headerTimeout": .int(base.server.headerTimeout),
            "server.bodyTimeout": .int(base.server.bodyTimeout),
            "server.connectionLimitPerAddress": .int(base.server.connectionLimitPerAddress),
            "server.connectionMemoryLimit": .int(base.server.connectionMemoryLimit),
            "server.maxBodyBytes": .int(base.server.maxBodyBytes), "server.maxURIBytes": .int(base.server.maxURIBytes),
            "server.shutdownDelay": .int(base.shutdownDelay), "server.shutdownGrace": .int(base.shutdownGrace),
            "storage.dataDir": .string(base.dataDir), "storage.url": .string(base.storage.description),
            "routing.routesFile": .string(base.routesFile), "routing.redirectLimit": .int(base.redirectLimit),
            "links.enabled": .bool(base.links.enabled), "links.port": .int(Int(base.links.port)),
            "links.redirectStatus": .int(base.links.redirectStatus), "links.deferredTTL": .int(base.links.deferredTTL),
            "links.appRateLimit": .int(base.links.appRateLimit),
            "links.tokenRateLimit": .int(base.links.tokenRateLimit),
            "links.maxDeferredTokens": .int(base.links.maxDeferredTokens),
            "links.bufferedClicks": .int(base.links.bufferedClicks), "events.queueLimit": .int(base.eventsQueueLimit),
            "events.maxSubscriptions": .int(base.maxSubscriptions), "events.maxTypes": .int(base.eventsMaxTypes),
            "events.maxPerSubscription": .int(base.eventsMaxPerSubscription),
            "logging.level": .string(base.logLevel.rawValue), "logging.format": .string(base.logFormat.rawValue),
            "logging.accessLog": .string(base.accessLogLevel?.rawValue ?? "off"),
        ]
        return values.mapValues { ConfigValue($0, isSecret: false) }
    }
}

extension LinksSettings {
    /// Reads `links.*` (API.md §7); a malformed template, app ID, package name or fingerprint stops the start.
    init(reader: SettingReader) throws(ConfigError) {
        self.init()
        enabled = try reader.bool("links.enabled")
        port = try UInt16(reader.int("links.port", in: 0...65535))
        // One message for every refusal (`x`, `303`, `999`): the statuses a link may redirect with.
        guard let status = try? reader.int("links.redirectStatus", in: 301...308),
            [301, 302, 307, 308].contains(status)
        else { throw reader.invalid("links.redirectStatus", "301, 302, 307 or 308") }
        redirectStatus = status
        // Any positive number of seconds: a claim checks the token's expiry itself, the minute's purge only frees rows.
        deferredTTL = try reader.int("links.deferredTTL", in: 1...(90 * 86_400))
        appRateLimit = try reader.int("links.appRateLimit", in: 1...1_000_000)
        tokenRateLimit = try reader.int("links.tokenRateLimit", in: 1...1_000_000)
        maxDeferredTokens = try reader.int("links.maxDeferredTokens", in: 0...1_000_000_000)
        bufferedClicks = try reader.int("links.bufferedClicks", in: 1...100_000_000)
        siteName = try reader.optionalString("links.siteName")
        robotsTxt = try reader.optionalString("links.robotsTxt", allowEmpty: true)
        if let text = try reader.optionalString("links.webURL") {
            webURL = try reader.checked("links.webURL") { () throws(LinkError) in
                try LinksSettings.urlTemplate(text, field: "links.webURL")
            }
        }
        if let text = try reader.optionalString("links.notFoundURL") {
            notFoundURL = try reader.checked("links.notFoundURL") { () throws(LinkError) in
                try LinksSettings.plainURL(text, field: "links.notFoundURL")
            }
        }
        if let text = try reader.optionalString("links.faviconURL") {
            faviconURL = try reader.checked("links.faviconURL") { () throws(LinkError) in
                try LinksSettings.plainURL(text, field: "links.faviconURL")
            }
        }
        let previewKeys = ["title", "description", "image"].map { "links.preview." + $0 }
        let title = try reader.optionalString(previewKeys[0])
        let description = try reader.optionalString(previewKeys[1])
        let image = try reader.optionalString(previewKeys[2])
        preview = try reader.checked(group: previewKeys) { () throws(LinkError) in
            try LinksSettings.preview(title: title, description: description, image: image)
        }
        try readApps(reader)
    }

    /// `links.apps.ios.*` and `links.apps.android.*`: an app is configured when any of its keys is set.
    private mutating func readApps(_ reader: SettingReader) throws(ConfigError) {
        let iosKeys = ["appIDs", "scheme", "storeURL", "landingPage", "webcredentials"].map { "links.apps.ios." + $0 }
        let appIDs = try reader.optionalStrings(iosKeys[0])
        let iosScheme = try reader.optionalString(iosKeys[1])
        let iosStore = try reader.optionalString(iosKeys[2])
        let landingPage = try reader.optionalBool(iosKeys[3])
        let webcredentials = try reader.optionalBool(iosKeys[4])
        // An app named in the file, even as an empty object, is an app: its required keys must be there (API.md §7).
        let named = { (app: String) in reader.sources.file?.keys.contains("links.apps." + app) ?? false }
        let file = reader.sources.file?.path
        if appIDs != nil || iosScheme != nil || iosStore != nil || landingPage != nil || webcredentials != nil
            || named("ios")
        {
            ios = try reader.checked(group: iosKeys, namedBy: named("ios") ? file : nil) { () throws(LinkError) in
                try LinksSettings.iosApp(
                    appIDs: appIDs, scheme: iosScheme, storeURL: iosStore, landingPage: landingPage,
                    webcredentials: webcredentials)
            }
        }
        let androidKeys = ["package", "scheme", "sha256CertFingerprints", "storeURL"].map { "links.apps.android." + $0 }
        let package = try reader.optionalString(androidKeys[0])
        let androidScheme = try reader.optionalString(androidKeys[1])
        let fingerprints = try reader.optionalStrings(androidKeys[2])
        let androidStore = try reader.optionalString(androidKeys[3])
        if package != nil || androidScheme != nil || fingerprints != nil || androidStore != nil || named("android") {
            android = try reader.checked(group: androidKeys, namedBy: named("android") ? file : nil) {
                () throws(LinkError) in
                try LinksSettings.androidApp(
                    package: package, scheme: androidScheme, fingerprints: fingerprints, storeURL: androidStore)
            }
        }
    }
}
