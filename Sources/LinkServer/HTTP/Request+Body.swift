import Foundation
import LinkCore

extension Request {
    /// Whether the declared body type is JSON (`application/json`, `application/*+json`, or none given), in UTF-8.
    ///
    /// A body without a type is JSON unless a browser sent it (an `Origin`): a page on another site may send one
    /// without asking first (`fetch(url, {mode: "no-cors", body: new Blob([json])})`, a "simple" request that
    /// needs no CORS preflight), while declaring `application/json` makes the browser ask, and the service never
    /// allows another origin. So a write forged by another site is refused (cross-site request forgery, which
    /// matters most when no admin token is set), and curl, apps and the console (which declare the type) are not.
    var hasJSONContentType: Bool {
        guard let type = headers[.contentType] else { return headers[.origin] == nil }
        return Request.isJSONMediaType(type)
    }

    /// `application/json` or `application/…+json`, any case, with no charset other than UTF-8. Compares bytes:
    /// this runs for every request with a body.
    static func isJSONMediaType(_ type: String) -> Bool {
        // `nil`: not JSON; `.some(nil)`: JSON without parameters; `.some(offset)`: JSON, parameters after the `;`
        // at `offset`.
        let semicolon: Int?? = type.withUTF8Bytes { bytes in
            // The media type: up to the first `;`, spaces trimmed, ASCII case-insensitive.
            let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            let mediaType = UnsafeBufferPointer(rebasing: bytes[bytes.trimmingSpaces(0..<end)])
            guard mediaType.starts(caseInsensitiveWith: "application/") else { return .none }
            let subtype = UnsafeBufferPointer(rebasing: mediaType[12...])
            let isJSON =
                (subtype.count == 4 && subtype.starts(caseInsensitiveWith: "json"))
                || (subtype.count > 5
                    && UnsafeBufferPointer(rebasing: subtype[(subtype.count - 5)...]).starts(
                        caseInsensitiveWith: "+json"))
            guard isJSON else { return .none }
            return .some(end < bytes.count ? end : nil)
        }
        guard case .some(let parameters) = semicolon else { return false }
        guard let parameters else { return true }
        // JSON is UTF-8 (RFC 8259); a declared charset must say so.
        let utf8 = type.utf8
        for parameter in String(Substring(utf8[utf8.index(utf8.startIndex, offsetBy: parameters + 1)...])).split(
            separator: ";")
        {
            let text = parameter.trimmingSpaces.lowercased()
            guard text.hasPrefix("charset=") else { continue }
            let charset = text.dropFirst("charset=".count).replacingOccurrences(of: "\"", with: "")
            if charset != "utf-8" && charset != "utf8" { return false }
        }
        return true
    }
}

extension Request {
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
    /// Malformed escapes give `invalid_url`, naming the field when the value is malformed.
    func queryItems() throws(LinkError) -> [(String, String)] {
        try query().map { ($0.name, $0.value) }
    }

    /// ``queryItems()`` as parsed, without copying them into pairs (for the endpoints on the hot path).
    func query() throws(LinkError) -> [QueryItem] {
        guard let rawQuery, !rawQuery.isEmpty else { return [] }
        return try Query(parsingRequestQuery: rawQuery).items
    }

    /// The last value of query parameter `name`.
    func queryValue(_ name: String) throws(LinkError) -> String? {
        try queryItems().last { $0.0 == name }?.1
    }
}
