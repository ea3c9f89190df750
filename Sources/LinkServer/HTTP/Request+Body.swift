import Foundation
import LinkCore

extension Request {
    /// Whether the declared body type is JSON (`application/json`, `application/*+json`, or none given), in UTF-8.
    var hasJSONContentType: Bool {
        guard let type = headers["content-type"] else { return true }
        let parts = type.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
        let mediaType = parts.first ?? ""
        guard mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
        else { return false }
        // JSON is UTF-8 (RFC 8259); a declared charset must say so.
        for parameter in parts.dropFirst() where parameter.hasPrefix("charset=") {
            let charset = parameter.dropFirst("charset=".count).replacingOccurrences(of: "\"", with: "")
            if charset != "utf-8" && charset != "utf8" { return false }
        }
        return true
    }

    /// The body parsed as JSON (nesting limit 64); `invalid_json` when empty or malformed.
    func jsonBody() throws(LinkError) -> JSONValue {
        guard !body.isEmpty else { throw LinkError.missingBody }
        do {
            return try JSONParser.parse(body)
        } catch {
            throw LinkError.invalidJSON(error)
        }
    }

    /// The query string split into decoded items (API.md §2 rules: `+` is a plus, a key without `=` is `""`).
    /// Malformed escapes give `invalid_url`.
    func queryItems() throws(LinkError) -> [(String, String)] {
        guard let rawQuery, !rawQuery.isEmpty else { return [] }
        var items: [(String, String)] = []
        let utf8 = rawQuery.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            if start < end {
                let part = rawQuery[start..<end]
                let equals = part.utf8.firstIndex(of: UInt8(ascii: "="))
                guard let key = PercentDecoding.decode(part[..<(equals ?? part.endIndex)]),
                    let value = equals.map({ PercentDecoding.decode(part[part.utf8.index(after: $0)...]) }) ?? ""
                else {
                    throw LinkError(
                        .invalidURL, "Malformed percent-escape in the query string",
                        details: ["query": .string(rawQuery)])
                }
                items.append((key, value))
            }
            start = end < utf8.endIndex ? utf8.index(after: end) : end
        }
        return items
    }

    /// The last value of query parameter `name`.
    func queryValue(_ name: String) throws(LinkError) -> String? {
        try queryItems().last { $0.0 == name }?.1
    }
}
