import Foundation

/// Moves a value between the facade's public types and the generated ones through their shared JSON form: both
/// are `Codable` to exactly the wire shape of `openapi.json`, so the round trip is the contract itself. Dates
/// travel as the service writes them (RFC 3339, with milliseconds).
enum JSONBridge {
    static func convert<Output: Decodable>(_ value: some Encodable, to type: Output.Type = Output.self) throws -> Output
    {
        try decoder.decode(type, from: encoder.encode(value))
    }

    /// A request body as the generated type of `operation`: one the contract's shape cannot hold (a value outside
    /// one of its closed lists, a field it does not have, a number JSON cannot write) is refused before it is sent,
    /// as the service would refuse it: ``LinkServiceError`` 400 `invalid_request` (`details.operation`), never a raw
    /// `EncodingError` or `DecodingError`.
    static func request<Output: Decodable>(_ value: some Encodable, for operation: String) throws -> Output {
        do {
            return try convert(value)
        } catch {
            throw LinkServiceError(
                status: 400, code: .invalidRequest,
                message: "The \(operation) request cannot be written in the contract's shape (not sent): \(error)",
                details: ["operation": .string(operation)])
        }
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try RFC3339Transcoder().encode(date))
        }
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            do {
                return try RFC3339Transcoder().decode(text)
            } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 date: \(text)")
            }
        }
        return decoder
    }

    /// A field the contract requires was absent.
    struct Missing: Error, CustomStringConvertible {
        let field: String
        var description: String { "the answer has no '\(field)'" }
    }
}
