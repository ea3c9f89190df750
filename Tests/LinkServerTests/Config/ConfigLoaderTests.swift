import Foundation
import LinkCore
import Testing

@testable import LinkServer

@Suite struct ConfigLoaderTests {
    private func file(_ json: String) throws -> String {
        let path = TestServer.temporaryDirectory() + "/linkserver.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func flags(_ pairs: [String: String]) -> ConfigSource {
        var source = ConfigSource()
        for (key, value) in pairs { source.values[key] = (.string(value), "--flag") }
        return source
    }

    @Test func defaults() throws {
        let config = try ConfigLoader.build(from: ConfigSource(), processors: 4)
        #expect(config.server.host == "0.0.0.0")
        #expect(config.server.port == 8080)
        #expect(config.server.threads == 4)
        #expect(config.server.connectionLimit == 10_000)
        #expect(config.server.maxBodyBytes == 1 << 20)
        #expect(config.server.maxURIBytes == 8 * 1024)
        #expect(config.server.headerTimeout == 10)
        #expect(config.server.bodyTimeout == 60)
        #expect(config.server.connectionLimitPerAddress == 1000)
        #expect(config.dataDir == "./data")
        #expect(config.routesFile == "config/routes.json")
        #expect(config.redirectLimit == 5)
        #expect(config.eventsQueueLimit == 1000)
        #expect(config.adminToken == nil)
    }

    @Test func atLeastTwoThreadsByDefault() throws {
        #expect(try ConfigLoader.build(from: ConfigSource(), processors: 1).server.threads == 2)
    }

    @Test func commandLineBeatsEnvironmentBeatsFileBeatsDefaults() throws {
        let path = try file(
            #"{"server": {"port": 9000, "host": "127.0.0.1", "threads": 3}, "storage": {"dataDir": "/f"}, "routing": {"redirectLimit": 7}}"#
        )
        let config = try ConfigLoader.load(
            commandLine: flags(["server.port": "9002"]), configFile: path,
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
            commandLine: ConfigSource(), configFile: nil,
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
        (["server.port": "abc"], "server.port"),
        (["server.port": "70000"], "server.port"),
        (["server.port": "-1"], "server.port"),
        (["server.host": "not a host"], "server.host"),
        (["server.threads": "0"], "server.threads"),
        (["logging.level": "loud"], "logging.level"),
        (["storage.dataDir": ""], "storage.dataDir"),
        (["server.headerTimeout": "0"], "server.headerTimeout"),
        (["server.bodyTimeout": "3601"], "server.bodyTimeout"),
        (["server.connectionLimitPerAddress": "-1"], "server.connectionLimitPerAddress"),
    ])
    func rejectsInvalidSettingsNamingThem(settings: [String: String], key: String) {
        #expect {
            try ConfigLoader.build(from: flags(settings), processors: 2)
        } throws: { error in
            "\(error)".contains(key) && "\(error)".contains("--flag")
        }
    }

    @Test func rejectsUnknownAndMistypedFileSettings() throws {
        let unknown = try file(#"{"server": {"prot": 1}}"#)
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(commandLine: ConfigSource(), configFile: unknown, environment: [:])
        }
        let mistyped = try file(#"{"links": {"hosts": "example.com"}}"#)
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(commandLine: ConfigSource(), configFile: mistyped, environment: [:])
        }
        let broken = try file(#"{"server": "#)
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(commandLine: ConfigSource(), configFile: broken, environment: [:])
        }
    }

    @Test func missingExplicitConfigFileIsAnError() {
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(commandLine: ConfigSource(), configFile: "/nonexistent/x.json", environment: [:])
        }
    }

    @Test func memoryPoolGrowsToHoldTheLongestTarget() throws {
        let config = try ConfigLoader.build(
            from: flags(["server.maxURIBytes": "65536", "server.connectionMemoryLimit": "8192"]), processors: 2)
        #expect(config.server.connectionMemoryLimit >= 65536 + 4096)
    }

    /// The slow-client bounds (issue 19): file, environment and flag, in that order of precedence.
    @Test func slowClientSettingsFromFileEnvironmentAndFlags() throws {
        let path = try file(#"{"server": {"headerTimeout": 5, "bodyTimeout": 20, "connectionLimitPerAddress": 0}}"#)
        let fromFile = try ConfigLoader.load(commandLine: ConfigSource(), configFile: path, environment: [:])
        #expect(fromFile.server.headerTimeout == 5)
        #expect(fromFile.server.bodyTimeout == 20)
        #expect(fromFile.server.connectionLimitPerAddress == 0)
        let fromEnvironment = try ConfigLoader.load(
            commandLine: ConfigSource(), configFile: path,
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
            commandLine: command.commandLineSource, configFile: path, environment: ["LINK_HEADER_TIMEOUT": "6"])
        #expect(fromFlags.server.headerTimeout == 7)
        #expect(fromFlags.server.bodyTimeout == 22)
        #expect(fromFlags.server.connectionLimitPerAddress == 51)
    }

    @Test func commandLineFlagsHaveTheContractNames() throws {
        let command = try LinkServerCommand.parse([
            "--host", "127.0.0.1", "--port", "0", "--data-dir", "/d", "--routes", "r.json", "--config", "c.json",
        ])
        let source = command.commandLineSource
        #expect(source.values["server.host"]?.value == "127.0.0.1")
        #expect(source.values["server.port"]?.value == "0")
        #expect(source.values["storage.dataDir"]?.value == "/d")
        #expect(source.values["routing.routesFile"]?.value == "r.json")
        #expect(command.config == "c.json")
    }
}
