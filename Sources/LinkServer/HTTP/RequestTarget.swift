/// The four forms of a request target (RFC 9112 §3.2), as this server takes them: a path (`/users/42?x=1`), the
/// whole URL a proxy-like client may send (`http://links.example.com/users/42`), or `*` for `OPTIONS`.
/// libmicrohttpd 0.9.75 hands any of them over as it came.
enum RequestTarget: Equatable {
    /// Origin-form: served as it is.
    case origin
    /// Absolute-form (`http` or `https`): served as its path and query (`/` when it has none), its authority in
    /// place of `Host` (§3.2.2: "MUST ignore the received Host header field").
    case absolute(path: String, authority: String)
    /// Asterisk-form: `OPTIONS *`, a question about the server itself (§3.2.4).
    case asterisk
    /// Anything else (`users/42`, `myapp://x`, `*` with another method): 400.
    case invalid

    init(_ target: String, method: String) {
        // Nearly every target is a path: told by its first byte, without a copy.
        if target.utf8.first == UInt8(ascii: "/") {
            self = .origin
            return
        }
        var target = target
        self = target.withUTF8 { bytes in
            guard let first = bytes.first else { return .invalid }
            if first == UInt8(ascii: "/") { return .origin }
            if first == UInt8(ascii: "*") { return bytes.count == 1 && method == "OPTIONS" ? .asterisk : .invalid }
            // `http://` or `https://`, the scheme in any case.
            guard bytes.count > 7, bytes[0] | 0x20 == UInt8(ascii: "h"), bytes[1] | 0x20 == UInt8(ascii: "t"),
                bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "p")
            else { return .invalid }
            let index = bytes[4] | 0x20 == UInt8(ascii: "s") ? 5 : 4
            guard index + 2 < bytes.count, bytes[index] == UInt8(ascii: ":"),
                bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/")
            else { return .invalid }
            let authorityStart = index + 3
            var authorityEnd = authorityStart
            while authorityEnd < bytes.count, bytes[authorityEnd] != UInt8(ascii: "/"),
                bytes[authorityEnd] != UInt8(ascii: "?")
            {
                authorityEnd += 1
            }
            guard authorityEnd > authorityStart else { return .invalid }
            let authority = String(
                decoding: UnsafeBufferPointer(rebasing: bytes[authorityStart..<authorityEnd]), as: UTF8.self)
            let rest = String(decoding: UnsafeBufferPointer(rebasing: bytes[authorityEnd...]), as: UTF8.self)
            return .absolute(path: rest.hasPrefix("/") ? rest : "/" + rest, authority: authority)
        }
    }
}
