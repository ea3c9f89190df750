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
