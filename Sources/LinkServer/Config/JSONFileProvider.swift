import Configuration
import LinkCore

/// The JSON config file as a swift-configuration provider. Objects of any depth become dotted keys
/// (`{"links": {"apps": {"ios": {"appIDs": [...]}}}}` is `links.apps.ios.appIDs`); `null` means "not set".
///
/// Read with LinkCore's parser rather than the library's `JSONSnapshot` (the `JSON` trait): that one turns `true`
/// into `1` and `1` into `true`, and cannot list the file's keys, which the unknown-key check needs.
struct JSONFileProvider: Sendable {
    /// The file's path, which messages name as the origin of its values.
    let path: String
    /// The file's settings by key; arrays and scalars only.
    let values: [AbsoluteConfigKey: JSONValue]
    /// Every key the file names, empty objects included (`links.apps.windows: {}`), for the unknown-key check.
    let keys: [String]

    /// Parses the file's bytes.
    init(bytes: [UInt8], path: String) throws(ConfigError) {
        let root: JSONValue
        do {
            // A repeated key is refused: `{"server": {...}, "server": {...}}` would drop the first section without
            // a word.
            root = try JSONParser.parse(bytes, duplicateKeys: .refused)
        } catch let error where error.kind == .duplicateKey {
            // Valid JSON (RFC 8259 allows repeated names), refused all the same: say what it is.
            throw ConfigError("config file \(path) writes a key twice in one object: \(error)")
        } catch {
            throw ConfigError("config file \(path) is not valid JSON: \(error)")
        }
        guard case .object(let sections) = root else {
            throw ConfigError("config file \(path) must hold a JSON object")
        }
        var values: [AbsoluteConfigKey: JSONValue] = [:]
        var keys: [String] = []
        var pending: [([String], JSONValue)] = sections.map { ([$0.key], $0.value) }
        while let (components, value) = pending.popLast() {
            switch value {
            case .object(let members) where !members.isEmpty:
                pending.append(contentsOf: members.map { (components + [$0.key], $0.value) })
            case .object:
                keys.append(components.joined(separator: "."))
            case .null:
                continue
            default:
                keys.append(components.joined(separator: "."))
                values[AbsoluteConfigKey(components)] = value
            }
        }
        self.path = path
        self.values = values
        self.keys = keys.sorted()
    }

    /// Converts a value to the type a reader asks for. Numbers and booleans written as strings are accepted, as
    /// they are in the environment; nothing else is converted (`true` is not `1`).
    static func content(of value: JSONValue, as type: ConfigType) -> ConfigContent? {
        switch (type, value) {
        case (.string, .string(let text)): return .string(text)
        case (.int, .int(let number)): return .int(number)
        case (.int, .string(let text)): return Int(text).map(ConfigContent.int)
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.bool, .string("true")): return .bool(true)
        case (.bool, .string("false")): return .bool(false)
        case (.stringArray, .array(let items)):
            var strings: [String] = []
            for item in items {
                guard case .string(let text) = item else { return nil }
                strings.append(text)
            }
            return .stringArray(strings)
        default: return nil
        }
    }

    /// A value of the file that is not of the type asked for.
    struct Mismatch: Error, CustomStringConvertible {
        var key: AbsoluteConfigKey
        var type: ConfigType
        var description: String { "\(key) is not a \(type)" }
    }
}

extension JSONFileProvider: ConfigSnapshot, ConfigProvider {
    var providerName: String { path }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        guard let value = values[key] else { return LookupResult(encodedKey: key.description, value: nil) }
        guard let content = Self.content(of: value, as: type) else { throw Mismatch(key: key, type: type) }
        return LookupResult(encodedKey: key.description, value: ConfigValue(content, isSecret: false))
    }

    // The library's async requirements run on the caller's executor (`nonisolated(nonsending)`); so must these.
    nonisolated(nonsending) func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws
        -> LookupResult
    {
        try value(forKey: key, type: type)
    }

    nonisolated(nonsending) func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey, type: ConfigType,
        updatesHandler:
            nonisolated(nonsending) (ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>)
            async throws -> Return
    ) async throws -> Return {
        try await watchValueFromValue(forKey: key, type: type, updatesHandler: updatesHandler)
    }

    func snapshot() -> any ConfigSnapshot { self }

    nonisolated(nonsending) func watchSnapshot<Return: ~Copyable>(
        updatesHandler:
            nonisolated(nonsending) (ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws
            -> Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }
}
