import Configuration
import Foundation
import LinkCore

/// Builds the one validated ``Config`` from command line > environment > config file > defaults, through
/// swift-configuration's providers (``ConfigSources``) and ``Config/init(reader:)``.
enum ConfigLoader {
    /// Loads the configuration. `commandLine` holds the settings given as flags, `configFile` the `--config` path.
    static func load(
        commandLine: CommandLineSettings = CommandLineSettings(), configFile: String?, environment: [String: String],
        processors: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(ConfigError) -> Config {
        var file: JSONFileProvider?
        // Only a file named: a binary started without one runs on the defaults, wherever it is started from (the
        // shipped config/linkserver.json configures example apps, which would change every link's answer).
        if let path = configFile ?? environment["LINK_CONFIG"] {
            let origin = configFile == nil ? "LINK_CONFIG" : "--config"
            guard !path.allSatisfy(\.isWhitespace) else {
                throw ConfigError("\(origin) is empty: name a config file, or leave it unset")
            }
            let bytes: [UInt8]
            do {
                bytes = try FileBytes.read(path)
            } catch {
                throw ConfigError("cannot read config file \(path) (from \(origin)): \(error)")
            }
            file = try JSONFileProvider(bytes: bytes, path: path)
        }
        let sources = ConfigSources(
            commandLine: commandLine, environment: environment, file: file,
            defaults: Config.defaults(processors: processors))
        return try build(from: sources)
    }

    /// Reads every setting, then refuses a config file key that no read asked for.
    static func build(from sources: ConfigSources) throws(ConfigError) -> Config {
        let reader = SettingReader(sources)
        var config = try Config(reader: reader)
        if let file = sources.file {
            try checkKeys(of: file, known: reader.knownKeys)
        }
        config.unusedVariables = sources.unusedVariables(known: reader.knownKeys)
        return config
    }

    /// A key of the file must be one that was read; one that only leads to such keys must be an object.
    private static func checkKeys(of file: JSONFileProvider, known: Set<String>) throws(ConfigError) {
        for key in file.keys where !known.contains(key) {
            if known.contains(where: { $0.hasPrefix(key + ".") }) {
                guard file.values[AbsoluteConfigKey(ConfigKey(key))] == nil else {
                    throw ConfigError("config file \(file.path): '\(key)' must be an object")
                }
                continue  // an empty object: nothing set
            }
            throw ConfigError("config file \(file.path): unknown setting '\(key)'")
        }
    }
}

/// Checks a host string the way ``BindAddress`` will parse it.
enum BindAddressCheck {
    static func isNumeric(_ host: String) -> Bool {
        (try? BindAddress(host: host, port: 0)) != nil
    }

    /// Whether `host` is a loopback address (`127.0.0.0/8`, `::1`): a listener there is reached from this host only.
    static func isLoopback(_ host: String) -> Bool {
        host == "::1" || host.hasPrefix("127.")
    }
}
