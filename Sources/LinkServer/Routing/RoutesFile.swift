import Foundation
import LinkCore

/// The routes file (`--routes`, default `config/routes.json`): `{"routes": [...]}`, loaded at start as
/// read-only `source: "config"` routes. A missing file means no config routes.
enum RoutesFile {
    static func load(_ path: String) throws -> [RouteDefinition] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let root: JSONValue
        do {
            root = try JSONParser.parse(Array(data), maxDepth: 512)
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
