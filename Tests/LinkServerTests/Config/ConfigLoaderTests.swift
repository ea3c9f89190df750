import Configuration
import Foundation
import LinkCore
import Testing

@testable import LinkServer

@Suite struct ConfigLoaderTests {
    private func file(_ json: String, named name: String = "linkserver.json") throws -> String {
        let path = TestServer.temporaryDirectory() + "/" + name
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Builds from flags and environment only (no config file, not even the default one).
    private func build(
        _ arguments: [String] = [], environment: [String: String] = [:], processors: Int = 2
    ) throws -> Config {
        let command = try LinkServerCommand.parse(arguments)
        return try ConfigLoader.build(
            from: ConfigSources(
                commandLine: command.commandLine, environment: environment, file: nil,
                defaults: Config.defaults(processors: processors)))
    }

    @Test func defaults() throws {
        let config = try build(processors: 4)
        #expect(config.server.host == "0.0.0.0")
        #expect(config.server.port == 8080)
        #expect(config.server.threads == 4)
        #expect(config.server.connectionLimit == 10_000)
        #expect(config.server.maxBodyBytes == 1 << 20)
        #expect(config.server.maxURIBytes == 8 * 1024)
        #expect(config.server.headerTimeout == 10)
        #expect(config.server.bodyTimeout == 60)
        #expect(config.server.connectionLimitPerAddress == 1000)
        #expect(config.shutdownDelay == 0)
        #expect(config.shutdownGrace == 5)
        #expect(config.dataDir == "./data")
        #expect(config.routesFile == "config/routes.json")
        #expect(config.redirectLimit == 5)
        #expect(config.eventsQueueLimit == 1000)
        #expect(config.adminToken == nil)
        #expect(config.storage == .sqlite)
        #expect(config.logLevel == .info)
        #expect(config.logFormat == .text)
        #expect(config.accessLogLevel == .debug)
        #expect(config.links.port == 8081)
        #expect(config.links.ios == nil)
        // API.md §7, §9 and §12's defaults for the links listener.
        #expect(config.links.enabled)
        #expect(config.links.redirectStatus == 302)
        #expect(config.links.deferredTTL == 86_400)
        #expect(config.links.appRateLimit == 30)
        #expect(config.links.tokenRateLimit == 120)
        #expect(config.links.maxDeferredTokens == 100_000)
        #expect(config.links.bufferedClicks == 100_000)
        #expect(config.maxSubscriptions == 10_000)
    }

    @Test func atLeastTwoThreadsByDefault() throws {
        #expect(try build(processors: 1).server.threads == 2)
    }

    @Test func commandLineBeatsEnvironmentBeatsFileBeatsDefaults() throws {
        let path = try file(
            #"{"server": {"port": 9000, "host": "127.0.0.1", "threads": 3}, "storage": {"dataDir": "/f"}, "routing": {"redirectLimit": 7}}"#
        )
        let config = try ConfigLoader.load(
            commandLine: LinkServerCommand.parse(["--port", "9002"]).commandLine, configFile: path,
            environment: ["LINK_PORT": "9001", "LINK_DATA_DIR": "/env", "LINK_ADMIN_TOKEN": "secret"])
        #expect(config.server.port == 9002)
        #expect(config.dataDir == "/env")
        #expect(config.server.host == "127.0.0.1")
        #expect(config.server.threads == 3)
        #expect(config.redirectLimit == 7)
        #expect(config.adminToken == "secret")
    }

    @Test func environmentVariablesMapToSettings() throws {
        let config = try ConfigLoader.load(
            configFile: nil,
            environment: [
                "LINK_HOST": "::1", "LINK_PORT": "0", "LINK_ROUTES": "r.json", "LINK_READ_TOKEN": "r",
                "LINK_LOG_LEVEL": "debug",
            ])
        #expect(config.server.host == "::1")
        #expect(config.server.port == 0)
        #expect(config.routesFile == "r.json")
        #expect(config.readToken == "r")
        #expect(config.logLevel == .debug)
    }

    @Test(arguments: [
        ("LINK_SERVER_PORT", "abc", "server.port"),
        ("LINK_PORT", "70000", "server.port"),
        ("LINK_PORT", "-1", "server.port"),
        ("LINK_HOST", "not a host", "server.host"),
        ("LINK_THREADS", "0", "server.threads"),
        ("LINK_LOG_LEVEL", "loud", "logging.level"),
        ("LINK_DATA_DIR", "", "storage.dataDir"),
        ("LINK_SERVER_HEADER_TIMEOUT", "0", "server.headerTimeout"),
        ("LINK_BODY_TIMEOUT", "3601", "server.bodyTimeout"),
        ("LINK_CONNECTION_LIMIT_PER_ADDRESS", "-1", "server.connectionLimitPerAddress"),
        ("LINK_SERVER_SHUTDOWN_DELAY", "-1", "server.shutdownDelay"),
        ("LINK_LOGGING_FORMAT", "xml", "logging.format"),
        ("LINK_SERVER_SHUTDOWN_GRACE", "3601", "server.shutdownGrace"),
        ("LINK_LINKS_ENABLED", "maybe", "links.enabled"),
        ("LINK_LINKS_REDIRECT_STATUS", "303", "links.redirectStatus"),
        ("LINK_LINKS_WEB_URL", "https://{x}.example.com/", "links.webURL"),
        ("LINK_LINKS_APPS_IOS_APP_IDS", "com.example.app", "links.apps.ios.appIDs"),
    ])
    func rejectsInvalidSettingsNamingKeyValueAndVariable(variable: String, value: String, key: String) {
        #expect {
            try build(environment: [variable: value])
        } throws: { error in
            let message = "\(error)"
            return message.contains(key) && message.contains("(from \(variable))") && message.contains("'\(value)'")
        }
    }

    /// A boolean variable takes what swift-configuration reads as one (any case), and its message lists them all;
    /// the file's message names only JSON's booleans.
    @Test func booleansInTheEnvironmentAndTheirMessage() throws {
        for (text, expected) in [("YES", true), ("no", false), ("1", true), ("0", false), ("False", false)] {
            #expect(try build(environment: ["LINK_LINKS_ENABLED": text]).links.enabled == expected, "\(text)")
        }
        #expect {
            try build(environment: ["LINK_LINKS_ENABLED": "maybe"])
        } throws: { error in
            "\(error)"
                == "invalid links.enabled 'maybe' (from LINK_LINKS_ENABLED): must be true, false, yes, no, 1 or 0"
        }
        let path = try file(#"{"links": {"enabled": "yes"}}"#)
        #expect {
            try ConfigLoader.load(configFile: path, environment: [:])
        } throws: { error in
            "\(error)" == "invalid links.enabled 'yes' (from \(path)): must be true or false"
        }
    }

    @Test func aBadFlagIsNamedWithItsValue() {
        #expect {
            try build(["--port", "70000"])
        } throws: { error in
            "\(error)" == "invalid server.port 70000 (from --port): must be an integer from 0 to 65535"
        }
    }

    /// A file that cannot be read says why, in the system's words, and who named it.
    @Test func anUnreadableConfigFileSaysWhyAndWhoNamedIt() throws {
        let missing = #expect(throws: ConfigError.self) {
            try ConfigLoader.load(configFile: "/nonexistent/linkserver.json", environment: [:])
        }
        #expect(
            missing.map { "\($0)" }
                == "cannot read config file /nonexistent/linkserver.json (from --config): No such file or directory")
        let folder = TestServer.temporaryDirectory()
        let directory = #expect(throws: ConfigError.self) {
            try ConfigLoader.load(configFile: nil, environment: ["LINK_CONFIG": folder])
        }
        let text = directory.map { "\($0)" } ?? ""
        #expect(text == "cannot read config file \(folder) (from LINK_CONFIG): Is a directory", "\(text)")
        for blank in ["", " "] {
            let empty = #expect(throws: ConfigError.self) {
                try ConfigLoader.load(configFile: nil, environment: ["LINK_CONFIG": blank])
            }
            #expect(empty.map { "\($0)" } == "LINK_CONFIG is empty: name a config file, or leave it unset")
        }
    }

    /// A redirect status is refused with the statuses a link may use, whatever was wrong with it.
    @Test(arguments: ["x", "303", "999"])
    func aRedirectStatusIsRefusedWithTheStatusesALinkMayUse(value: String) {
        #expect {
            try build(environment: ["LINK_LINKS_REDIRECT_STATUS": value])
        } throws: { error in
            "\(error)".hasSuffix("must be 301, 302, 307 or 308")
        }
    }

    /// A value quoted in the message is written on its one line: a newline in a variable could forge a log line.
    @Test func aBadValuesControlCharactersAreEscaped() {
        let error = #expect(throws: ConfigError.self) {
            try build(environment: ["LINK_HOST": "1.2.3.4\n2026-11-30T00:00:00Z critical FAKE\u{1B}[31m"])
        }
        let text = error.map { "\($0)" } ?? ""
        #expect(!text.contains("\n") && !text.contains("\u{1B}"), "\(text)")
        #expect(text.contains(#"1.2.3.4\n2026-11-30T00:00:00Z critical FAKE\u{1B}[31m"#), "\(text)")
    }

    /// §9 gives `links.deferredTTL` no range: seconds as short as one are a valid life for a token (a test's, a
    /// demo's); zero or less is not.
    @Test func deferredTokensMayLiveAnyPositiveNumberOfSeconds() throws {
        #expect(try build(environment: ["LINK_LINKS_DEFERRED_TTL": "1"]).links.deferredTTL == 1)
        #expect(try build(environment: [:]).links.deferredTTL == 86_400)
        #expect(throws: (any Error).self) { try build(environment: ["LINK_LINKS_DEFERRED_TTL": "0"]) }
    }

    /// Both listeners bind `server.host`: one port for both is refused at start (with port 0 each picks its own).
    @Test func theListenersNeedTwoPorts() throws {
        let error = #expect(throws: ConfigError.self) { try build(["--port", "9000", "--links-port", "9000"]) }
        #expect(
            error?.description
                == "invalid links.port 9000 (from --links-port): must be another port than server.port 9000")
        #expect(try build(["--port", "0", "--links-port", "0"]).links.port == 0)
        #expect(
            try build(["--port", "9000", "--links-port", "9000"], environment: ["LINK_LINKS_ENABLED": "false"]).server
                .port == 9000)
    }

    /// A token with a line end (read from a file with `$(cat …)` kept) or a space would make every request 401
    /// without a word why: it stops the start, without showing the token.
    @Test func tokensWithSpacesOrControlCharactersAreRefused() throws {
        for token in ["hunter2\n", " hunter2", "hun ter2", "hunter2\t", "hun\u{7F}ter2", "hunter2\u{A0}"] {
            for variable in ["LINK_ADMIN_TOKEN", "LINK_READ_TOKEN"] {
                let error = #expect(throws: ConfigError.self) { try build(environment: [variable: token]) }
                #expect(error?.description.contains("(secret)") == true, "\(token.debugDescription)")
                #expect(error?.description.contains("hun") == false)
            }
        }
        #expect(try build(environment: ["LINK_ADMIN_TOKEN": "s3cr3t-token_~.+/="]).adminToken == "s3cr3t-token_~.+/=")
    }

    /// `links.maxDeferredTokens` of 0 turns deferred-link tokens off; a negative number is refused.
    @Test func maxDeferredTokensMayBeZero() throws {
        #expect(try build(environment: ["LINK_LINKS_MAX_DEFERRED_TOKENS": "0"]).links.maxDeferredTokens == 0)
        let error = #expect(throws: (any Error).self) {
            try build(environment: ["LINK_LINKS_MAX_DEFERRED_TOKENS": "-1"])
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("links.maxDeferredTokens"))
    }

    /// An app named in the file as an empty object lacks its required keys: the message names the file, not the
    /// defaults.
    @Test(arguments: [("ios", "links.apps.ios.appIDs"), ("android", "links.apps.android.package")])
    func anEmptyAppNamesTheFile(app: String, key: String) throws {
        let path = try file(#"{"links": {"apps": {"\#(app)": {}}}}"#)
        #expect {
            try ConfigLoader.load(configFile: path, environment: [:])
        } throws: { error in
            "\(error)".contains(key) && "\(error)".hasSuffix("(from \(path))")
        }
    }

    @Test func aBadFileValueNamesTheFile() throws {
        let path = try file(#"{"server": {"port": 70000}}"#)
        #expect {
            try ConfigLoader.load(configFile: path, environment: [:])
        } throws: { error in
            "\(error)" == "invalid server.port 70000 (from \(path)): must be an integer from 0 to 65535"
        }
    }

    /// The derived name (`LINK_` + the key) wins over the older short name; both beat the file.
    @Test func derivedEnvironmentNamesAndShortAliases() throws {
        #expect(try build(environment: ["LINK_SERVER_PORT": "9001", "LINK_PORT": "9002"]).server.port == 9001)
        #expect(try build(environment: ["LINK_PORT": "9002"]).server.port == 9002)
        let config = try build(environment: [
            "LINK_SERVER_MAX_URIBYTES": "4096", "LINK_ROUTING_REDIRECT_LIMIT": "9", "LINK_LINKS_HOSTS": "A.com, b.org",
            "LINK_LINKS_APPS_IOS_APP_IDS": "ABCDE12345.com.example.app", "LINK_LINKS_APPS_IOS_LANDING_PAGE": "true",
            "LINK_AUTH_ADMIN_TOKEN": "t",
        ])
        #expect(config.server.maxURIBytes == 4096)
        #expect(config.redirectLimit == 9)
        #expect(config.linkHosts == ["a.com", "b.org"])
        #expect(config.links.ios?.appIDs.map(\.description) == ["ABCDE12345.com.example.app"])
        #expect(config.links.ios?.landingPage == true)
        #expect(config.adminToken == "t")
    }

    /// Tokens and the storage URL are secrets: a message about them never shows the value.
    @Test(arguments: [
        (#"{"auth": {"adminToken": 12345678}}"#, "12345678"),
        (#"{"auth": {"readToken": ["hunter2"]}}"#, "hunter2"),
        (#"{"storage": {"url": "mysql://u:hunter2@h/d"}}"#, "hunter2"),
    ])
    func secretsNeverPrint(json: String, secret: String) throws {
        let path = try file(json)
        #expect {
            try ConfigLoader.load(configFile: path, environment: [:])
        } throws: { error in
            "\(error)".contains(path) && !"\(error)".contains(secret)
        }
    }

    /// Objects of any depth in the file; a type is never converted into another (`1` is not `true`).
    @Test(arguments: [
        (#"{"links": {"apps": {"ios": {"appId": ["ABCDE12345.com.example.app"]}}}}"#, "links.apps.ios.appId"),
        (#"{"links": {"enabled": 1}}"#, "links.enabled"),
        (#"{"server": {"port": true}}"#, "server.port"),
        (#"{"server": {"port": 80.5}}"#, "server.port"),
        (#"{"server": 8080}"#, "'server' must be an object"),
        (#"{"links": {"preview": "Example"}}"#, "'links.preview' must be an object"),
        (#"{"links": {"hosts": ["a.com", 1]}}"#, "links.hosts"),
    ])
    func fileValuesAreStrictlyTyped(json: String, named: String) throws {
        let path = try file(json)
        #expect {
            try ConfigLoader.load(configFile: path, environment: [:])
        } throws: { error in
            "\(error)".contains(named)
        }
    }

    /// A section or setting written twice is refused, naming the key: JSON readers keep one of the two, and this
    /// one silently dropped the first `server` section of `{"server": {...}, "server": {...}}`.
    @Test(arguments: [
        (#"{"server": {"port": 9001}, "server": {"threads": 3}}"#, "server", 27),
        (#"{"links": {"hosts": ["a.com"], "hosts": ["b.com"]}}"#, "hosts", 31),
    ])
    func aRepeatedKeyIsRefused(json: String, key: String, offset: Int) throws {
        let path = try file(json)
        #expect {
            try ConfigLoader.load(configFile: path, environment: [:])
        } throws: { error in
            "\(error)"
                == "config file \(path) writes a key twice in one object: duplicate key \"\(key)\" at byte \(offset)"
        }
    }

    /// The routes file refuses a repeated key too (a route's second `"pattern"` replaced its first).
    @Test func aRepeatedKeyInTheRoutesFileIsRefused() throws {
        let path = try file(#"{"routes": [{"pattern": "/a", "name": "a", "pattern": "/b"}]}"#, named: "routes.json")
        #expect {
            try RoutesFile.load(path)
        } throws: { error in
            "\(error)" == "routes file \(path) writes a key twice in one object: duplicate key \"pattern\" at byte 43"
        }
    }

    @Test func nullInTheFileMeansNotSet() throws {
        let path = try file(#"{"server": {"port": null}, "links": {"robotsTxt": null, "apps": {"ios": null}}}"#)
        let config = try ConfigLoader.load(configFile: path, environment: [:])
        #expect(config.server.port == 8080)
        #expect(config.links.robotsTxt == nil)
        #expect(config.links.ios == nil)
    }

    @Test func rejectsUnknownAndMistypedFileSettings() throws {
        let unknown = try file(#"{"server": {"prot": 1}}"#)
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(configFile: unknown, environment: [:])
        }
        let mistyped = try file(#"{"links": {"hosts": "example.com"}}"#)
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(configFile: mistyped, environment: [:])
        }
        let broken = try file(#"{"server": "#)
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(configFile: broken, environment: [:])
        }
    }

    @Test func missingExplicitConfigFileIsAnError() {
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(configFile: "/nonexistent/x.json", environment: [:])
        }
    }

    @Test func memoryPoolGrowsToHoldTheLongestTarget() throws {
        let config = try build(environment: [
            "LINK_SERVER_MAX_URIBYTES": "65536", "LINK_SERVER_CONNECTION_MEMORY_LIMIT": "8192",
        ])
        #expect(config.server.connectionMemoryLimit >= 65536 + 4096)
    }

    /// The slow-client bounds (issue 19): file, environment and flag, in that order of precedence.
    @Test func slowClientSettingsFromFileEnvironmentAndFlags() throws {
        let path = try file(#"{"server": {"headerTimeout": 5, "bodyTimeout": 20, "connectionLimitPerAddress": 0}}"#)
        let fromFile = try ConfigLoader.load(configFile: path, environment: [:])
        #expect(fromFile.server.headerTimeout == 5)
        #expect(fromFile.server.bodyTimeout == 20)
        #expect(fromFile.server.connectionLimitPerAddress == 0)
        let fromEnvironment = try ConfigLoader.load(
            configFile: path,
            environment: [
                "LINK_HEADER_TIMEOUT": "6", "LINK_BODY_TIMEOUT": "21", "LINK_CONNECTION_LIMIT_PER_ADDRESS": "50",
            ])
        #expect(fromEnvironment.server.headerTimeout == 6)
        #expect(fromEnvironment.server.bodyTimeout == 21)
        #expect(fromEnvironment.server.connectionLimitPerAddress == 50)
        let command = try LinkServerCommand.parse([
            "--header-timeout", "7", "--body-timeout", "22", "--connection-limit-per-address", "51",
        ])
        let fromFlags = try ConfigLoader.load(
            commandLine: command.commandLine, configFile: path, environment: ["LINK_HEADER_TIMEOUT": "6"])
        #expect(fromFlags.server.headerTimeout == 7)
        #expect(fromFlags.server.bodyTimeout == 22)
        #expect(fromFlags.server.connectionLimitPerAddress == 51)
    }

    @Test func commandLineFlagsHaveTheContractNames() throws {
        let command = try LinkServerCommand.parse([
            "--host", "127.0.0.1", "--port", "0", "--data-dir", "/d", "--routes", "r.json", "--config", "c.json",
        ])
        let flags = command.commandLine
        #expect(flags.value(of: "server.host") == .string("127.0.0.1"))
        #expect(flags.value(of: "server.port") == .int(0))
        #expect(flags.value(of: "storage.dataDir") == .string("/d"))
        #expect(flags.value(of: "routing.routesFile") == .string("r.json"))
        #expect(command.config == "c.json")
    }
}
