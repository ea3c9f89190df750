import Configuration
import LinkCore
import Logging

/// Reads typed settings through swift-configuration's ``ConfigReader``, always with its *required* methods (the
/// optional ones fall back silently on a value they cannot convert), and turns every failure into one
/// ``ConfigError`` naming the key, the value and where it came from. Keys without a default are read only when a
/// provider holds them. Records every key it reads: the config file may hold no other.
///
/// Used by one thread while the configuration is built, hence a plain class.
final class SettingReader {
    let sources: ConfigSources
    private let reader: ConfigReader
    /// The keys read so far.
    private(set) var knownKeys: Set<String> = []

    init(_ sources: ConfigSources) {
        self.sources = sources
        self.reader = sources.reader
    }

    // MARK: Required (a default is in the lowest provider)

    func string(_ key: String, isSecret: Bool = false) throws(ConfigError) -> String {
        let text = try read(key, "a non-empty string", isSecret: isSecret) {
            try $0.requiredString(forKey: $1, isSecret: isSecret)
        }
        guard !text.isEmpty else { throw invalid(key, "a non-empty string", isSecret: isSecret) }
        return text
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        let expected = "an integer from \(range.lowerBound) to \(range.upperBound)"
        let number = try read(key, expected) { try $0.requiredInt(forKey: $1) }
        guard range.contains(number) else { throw invalid(key, expected) }
        return number
    }

    /// A boolean; the environment also takes `yes`/`no` and `1`/`0` (swift-configuration's reading of variables,
    /// any case), and its message says so.
    func bool(_ key: String) throws(ConfigError) -> Bool {
        let fromEnvironment = sources.isFromEnvironment(AbsoluteConfigKey(ConfigKey(key)))
        return try read(key, fromEnvironment ? "true, false, yes, no, 1 or 0" : "true or false") {
            try $0.requiredBool(forKey: $1)
        }
    }

    /// A log level; `off` (when allowed) is `nil`.
    func level(_ key: String, allowOff: Bool) throws(ConfigError) -> Logger.Level? {
        let names = Logger.Level.allCases.map(\.rawValue) + (allowOff ? ["off"] : [])
        let expected = "one of " + names.joined(separator: ", ")
        let name = try read(key, expected) { try $0.requiredString(forKey: $1) }.lowercased()
        guard names.contains(name) else { throw invalid(key, expected) }
        return Logger.Level(rawValue: name)
    }

    // MARK: Optional (no default: absent means unset; present is read as required)

    func optionalString(_ key: String, allowEmpty: Bool = false, isSecret: Bool = false) throws(ConfigError)
        -> String?
    {
        guard holds(key) else { return nil }
        if allowEmpty {
            return try read(key, "a string", isSecret: isSecret) {
                try $0.requiredString(forKey: $1, isSecret: isSecret)
            }
        }
        return try string(key, isSecret: isSecret)
    }

    func optionalBool(_ key: String) throws(ConfigError) -> Bool? {
        guard holds(key) else { return nil }
        return try bool(key)
    }

    /// An array of non-empty strings (in the environment: separated by commas).
    func optionalStrings(_ key: String) throws(ConfigError) -> [String]? {
        guard holds(key) else { return nil }
        let strings = try read(key, "an array of strings") { try $0.requiredStringArray(forKey: $1) }
        guard !strings.contains(where: \.isEmpty) else { throw invalid(key, "an array of strings") }
        return strings
    }

    // MARK: Checks

    /// Runs a domain check; its error stops the start naming where the value came from.
    func checked<Value>(_ key: String, _ check: () throws(LinkError) -> Value) throws(ConfigError) -> Value {
        do {
            return try check()
        } catch {
            throw ConfigError("invalid setting: \(error.message) (from \(origin(key)))")
        }
    }

    /// Like ``checked(_:_:)``, for a check that names no key of its own (one of several keys, or none given).
    /// `namedBy` is where the group was asked for when none of its keys is given (a file that names an app as `{}`).
    func checked<Value>(
        group keys: [String], namedBy: String? = nil, _ check: () throws(LinkError) -> Value
    ) throws(ConfigError) -> Value {
        do {
            return try check()
        } catch {
            let field: String? = if case .string(let name)? = error.details["field"] { name } else { nil }
            let held = keys.first { $0 == field && holds($0) } ?? keys.first { holds($0) }
            let from = held.map(origin) ?? namedBy ?? origin(keys[0])
            throw ConfigError("invalid setting: \(error.message) (from \(from))")
        }
    }

    /// The message for a value of `key` that is not `expected`; a secret value is not shown.
    func invalid(_ key: String, _ expected: String, isSecret: Bool = false) -> ConfigError {
        let found = sources.origin(of: AbsoluteConfigKey(ConfigKey(key)))
        let value = isSecret ? "(secret)" : found?.value ?? "(none)"
        return ConfigError("invalid \(key) \(value) (from \(found?.name ?? "defaults")): must be \(expected)")
    }

    /// Where the value of `key` came from: a flag, a variable, a file's path or `defaults`.
    func origin(_ key: String) -> String { sources.origin(of: AbsoluteConfigKey(ConfigKey(key)))?.name ?? "defaults" }

    /// Whether any provider holds `key`.
    func holds(_ key: String) -> Bool {
        knownKeys.insert(key)
        return sources.origin(of: AbsoluteConfigKey(ConfigKey(key))) != nil
    }

    private func read<Value>(
        _ key: String, _ expected: String, isSecret: Bool = false,
        _ body: (ConfigReader, ConfigKey) throws -> Value
    ) throws(ConfigError) -> Value {
        knownKeys.insert(key)
        do {
            return try body(reader, ConfigKey(key))
        } catch {
            throw invalid(key, expected, isSecret: isSecret)
        }
    }
}
