import Crypto

/// `If-None-Match` (RFC 9110 §13.1.2) for GET: whether the client already holds the representation (QR codes,
/// association files).
enum IfNoneMatch {
    /// Whether `header` names `entityTag` (a quoted strong tag such as `"0a1b"`) or is `*`. Comparison is weak, as
    /// the RFC asks for this header: `W/"0a1b"` also matches. An absent or malformed header matches nothing.
    static func matches(_ header: String?, entityTag: String) -> Bool {
        guard let header else { return false }
        if header.trimmingSpaces == "*" { return true }
        for element in header.split(separator: ",") {
            var tag = Substring(element.trimmingSpaces)
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == entityTag { return true }
        }
        return false
    }
}

/// Entity tags the service computes itself.
enum EntityTag {
    /// `"` + the first 16 hex digits of `body`'s SHA-256 + `"`: the same bytes give the same tag on every instance
    /// (association files, console assets).
    static func sha256(of body: [UInt8]) -> String {
        let digest = SHA256.hash(data: body)
        return "\"" + digest.prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\""
    }
}
