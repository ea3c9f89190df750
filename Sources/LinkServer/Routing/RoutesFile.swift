import Foundation
import LinkCore

/// The routes file (`--routes`, default `config/routes.json`): `{"routes": [...]}`, loaded at start as
/// read-only `source: "config"` routes.
enum RoutesFile {
    /// The routes of the file at `path`, or `nil` when there is no file there (the caller decides what that
    /// means: no config routes at start, no change on a reload).
    ///
    /// - Throws: ``ConfigError`` when the file exists but cannot be read, is not JSON, or holds an invalid route.
    static func load(_ path: String) throws -> [RouteDefinition]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            throw ConfigError("cannot read routes file \(path): \(error)")
        }
        let root: JSONValue
        do {
            // A repeated key is refused, as in the config file: a route's second `"pattern"` would replace its
            // first without a word.
            root = try JSONParser.parse(bytes, maxDepth: 512, duplicateKeys: .refused)
        } catch let error where error.kind == .duplicateKey {
            // Valid JSON (RFC 8259 allows repeated names), refused all the same: say what it is.
            throw ConfigError("routes file \(path) writes a key twice in one object: \(error)")
        } catch {
            throw ConfigError("routes file \(path) is not valid JSON: \(error)")
        }
        guard case .object(let object) = root, case .array(let trees)? = object["routes"], object.count == 1 else {
            throw ConfigError("routes file \(path) must be an object with one key, \"routes\", holding an array")
        }
        var definitions: [RouteDefinition] = []
        for (index, tree) in trees.enumerated() {
            do {
                definitions.append(try RouteDefinition(json: tree))
            } catch {
                throw ConfigError("routes file \(path), route \(index): \(error.message)")
            }
        }
        return definitions
    }
}
