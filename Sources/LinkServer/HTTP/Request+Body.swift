import Foundation
import LinkCore

extension Request {
    /// Whether the declared body type is JSON (`application/json`, `application/*+json`, or none given), in UTF-8.
    var hasJSONContentType: Bool {
        guard let type = headers[.contentType] else { return true }
        return Request.isJSONMediaType(type)
    }

    /// `application/json` or `application/…+json`, any case, with no charset other than UTF-8. Compares bytes:
    /// this runs for every request with a body.
    static func isJSONMediaType(_ type: String) -> Bool {
        var utf8 = Substring(type).utf8
        // The media type: up to the first `;`, spaces trimmed, case-insensitive.
        let semicolon = utf8.firstIndex(of: UInt8(ascii: ";"))
        var mediaType = utf8[..<(semicolon ?? utf8.endIndex)]
        while let first = mediaType.first, first == 0x20 || first == 0x09 { mediaType.removeFirst() }
        while let last = mediaType.last, last == 0x20 || last == 0x09 { mediaType.removeLast() }
        let application = "application/".utf8
        guard mediaType.count >= application.count,
            zip(mediaType, application).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
        else { return false }
        let subtype = mediaType.dropFirst(application.count)
        let isJSON =
            subtype.elementsEqual("json".utf8, by: { $0 | 0x20 == $1 })
            || (subtype.count > 5 && subtype.suffix(5).elementsEqual("+json".utf8, by: { $0 | 0x20 == $1 | 0x20 }))
        guard isJSON else { return false }
        guard let semicolon else { return true }
        // JSON is UTF-8 (RFC 8259); a declared charset must say so.
        utf8 = utf8[utf8.index(after: semicolon)...]
        for parameter in String(Substring(utf8)).split(separator: ";") {
            let text = parameter.trimmingSpaces.lowercased()
            guard text.hasPrefix("charset=") else { continue }
            let charset = text.dropFirst("charset=".count).replacingOccurrences(of: "\"", with: "")
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
        return try Query(parsing: rawQuery).items.map { ($0.name, $0.value) }
    }

    /// The last value of query parameter `name`.
    func queryValue(_ name: String) throws(LinkError) -> String? {
        try queryItems().last { $0.0 == name }?.1
    }
}
