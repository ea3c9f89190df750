import Foundation

/// Moves a value between the facade's public types and the generated ones through their shared JSON form: both
/// are `Codable` to exactly the wire shape of `openapi.json`, so the round trip is the contract itself.
enum JSONBridge {
    static func convert<Output: Decodable>(_ value: some Encodable, to type: Output.Type = Output.self) throws -> Output
    {
        try JSONDecoder().decode(type, from: JSONEncoder().encode(value))
    }
}

extension JSONBridge {
    /// A decoder for dates that the generated types re-encoded with `JSONEncoder`'s default strategy.
    static var dateDecoder: JSONDecoder { JSONDecoder() }

    /// A field the contract requires was absent.
    struct Missing: Error, CustomStringConvertible {
        let field: String
        var description: String { "the answer has no '\(field)'" }
    }
}
