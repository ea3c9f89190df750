extension Location {
    /// Canonicalises what a client sent (API.md §2).
    ///
    /// - A bare path (`/users/42?tab=posts`; a leading `/` is optional) is taken as it is.
    /// - `http`/`https` URLs: the host is recorded in ``host`` (for a host allow-list) and is not a segment. They
    ///   must have `//` and an authority.
    /// - Any other scheme (`myapp://users/42`): the authority is the first path segment → `/users/42`;
    ///   without `//` (`myapp:users/42`) the rest is the path.
    /// - The fragment is dropped; the query is parsed by ``Query/init(parsing:)``.
    /// - The path is split on `/`, empty segments are dropped, and each segment is percent-decoded separately as
    ///   UTF-8 (`%2F` stays inside its segment). `.` and `..` are ordinary segments.
    ///
    /// Empty text, raw control characters anywhere, a malformed escape, escapes that do not decode to UTF-8,
    /// decoded control characters in the path and an `http(s)` authority that is not `[userinfo@]host[:port]` are
    /// `invalid_url` (details `location`, `reason`).
    public init(_ text: String) throws(LinkError) {
        try self.init(text, fragmentAsPath: false)
    }

    /// Like ``init(_:)``; with `fragmentAsPath` (JJRouter's hash mode, opt-in), a URL whose fragment is not empty
    /// (`https://x.com/#/users/42?tab=1`, also `#!/users/42`) is the location its fragment names: the path and
    /// query come from the fragment, the host (for the host allow-list) from the URL.
    public init(_ text: String, fragmentAsPath: Bool) throws(LinkError) {
        if fragmentAsPath, let hash = text.utf8.firstIndex(of: UInt8(ascii: "#")) {
            let outer = try Location(String(text[..<hash]), fragmentAsPath: false)
            var fragment = Substring(text[text.utf8.index(after: hash)...])
            if fragment.hasPrefix("!") { fragment = fragment.dropFirst() }
            guard !fragment.isEmpty else {
                self = outer
                return
            }
            let inner = try Location(fragment.hasPrefix("/") ? String(fragment) : "/" + fragment, fragmentAsPath: false)
            self.init(segments: inner.segments, query: inner.query, scheme: outer.scheme, host: outer.host)
            return
        }
        self = try text.withUTF8Buffer { (bytes) throws(LinkError) -> Location in try Location(bytes: bytes) }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) throws(LinkError) {
        func fail(_ reason: String) -> LinkError {
            let text = String(decoding: bytes, as: UTF8.self)
            return LinkError(
                .invalidURL, "Invalid location '\(text)': \(reason)",
                details: ["location": .string(text), "reason": .string(reason)])
        }
        if bytes.isEmpty { throw fail("the location is empty") }
        if PercentCoding.containsControl(bytes) { throw fail("control characters are not allowed") }
        // A space that ends up as segment text (`"/users/1 "` → id `"1 "`) is almost always a copy-paste slip.
        if bytes.first == UInt8(ascii: " ") || bytes.last == UInt8(ascii: " ") {
            throw fail("leading or trailing spaces are not allowed")
        }

        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        let queryStart = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) ?? end
        var pathStart = 0
        var scheme: String?
        var host: String?
        var segments: [String] = []

        if let colon = Location.schemeEnd(bytes[..<queryStart]) {
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self).lowercased()
            scheme = name
            pathStart = colon + 1
            let hasAuthority =
                queryStart - pathStart >= 2 && bytes[pathStart] == UInt8(ascii: "/")
                && bytes[pathStart + 1] == UInt8(ascii: "/")
            // A browser (WHATWG URL) reads `https:evil.example/x`, `https:/evil.example/x` and `https:\\evil.example`
            // as links to `evil.example`; taken as paths here, they would pass `links.hosts` with no host at all.
            if !hasAuthority && (name == "http" || name == "https") {
                throw fail("an http(s) URL needs '//' and a host")
            }
            if hasAuthority {
                let authorityStart = pathStart + 2
                let authorityEnd = bytes[authorityStart..<queryStart].firstIndex(of: UInt8(ascii: "/")) ?? queryStart
                let authority = UnsafeBufferPointer(rebasing: bytes[authorityStart..<authorityEnd])
                pathStart = authorityEnd
                if name == "http" || name == "https" {
                    guard let name = Location.hostName(authority) else { throw fail("malformed host or port") }
                    host = name
                } else if !authority.isEmpty {
                    segments.append(try Location.decodeSegment(authority, fail: fail))
                }
            }
        }
        segments.reserveCapacity(segments.count + bytes[pathStart..<queryStart].count { $0 == UInt8(ascii: "/") } + 1)
        var segmentStart = pathStart
        for index in pathStart...queryStart where index == queryStart || bytes[index] == UInt8(ascii: "/") {
            if index > segmentStart {
                let raw = UnsafeBufferPointer(rebasing: bytes[segmentStart..<index])
                segments.append(try Location.decodeSegment(raw, fail: fail))
            }
            segmentStart = index + 1
        }
        let query =
            queryStart < end ? try Query(bytes: UnsafeBufferPointer(rebasing: bytes[(queryStart + 1)..<end])) : Query()
        self.init(segments: segments, query: query, scheme: scheme, host: host)
    }

    private static func decodeSegment(_ raw: UnsafeBufferPointer<UInt8>, fail: (String) -> LinkError)
        throws(LinkError) -> String
    {
        do {
            return try PercentCoding.decode(raw, allowControls: false)
        } catch .malformedEscape {
            throw fail("malformed percent-escape")
        } catch .invalidUTF8 {
            throw fail("percent-escapes do not decode to UTF-8")
        } catch {
            throw fail("a path segment decodes to a control character")
        }
    }

    /// The index of the `:` ending a scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`), if the text
    /// starts with one.
    private static func schemeEnd(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard let first = bytes.first, isLetter(first) else { return nil }
        for index in bytes.indices.dropFirst() {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index }
            let allowed =
                isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !allowed { return nil }
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Whether `authority` is one an `http(s)` location may have, with a host (``hostName(_:)``): a URL template's
    /// literal authority is checked as a clicked link's is.
    static func isWebAuthority(_ authority: Substring) -> Bool {
        var text = String(authority)
        return text.withUTF8 { hostName($0).map { !$0.isEmpty } ?? false }
    }

    /// The host of an authority: user info (up to the last `@`) and port removed, lower-cased; `nil` when the
    /// authority is not `[userinfo@]host[:port]` (RFC 3986 §3.2): user info with a byte it may not have, an IP
    /// literal without its `]`, a bracket or a byte a host may not have, a port that is not digits or past 65535.
    ///
    /// User info is checked because browsers read such an authority differently: in
    /// `https://evil.example\@links.example.com/`, a WHATWG parser (every browser, and an app's web view) takes `\`
    /// for `/` and goes to `evil.example`, where the `@` would make the host `links.example.com` here, past
    /// `links.hosts`.
    private static func hostName(_ authority: UnsafeBufferPointer<UInt8>) -> String? {
        var start = 0
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            guard authority[..<at].allSatisfy({ Location.userInfoBytes.contains($0) }) else { return nil }
            start = at + 1
        }
        var end = authority.count
        let literal = start < end && authority[start] == UInt8(ascii: "[")
        let closingBracket = authority[start...].lastIndex(of: UInt8(ascii: "]"))
        if literal && closingBracket == nil { return nil }
        if let colon = authority[(closingBracket ?? start)..<end].lastIndex(of: UInt8(ascii: ":")) {
            guard Location.isPort(authority[(colon + 1)...]) else { return nil }
            end = colon
        }
        let host = authority[start..<end]
        if literal {
            // `[` … `]` and nothing else between the bracket and the port.
            guard host.last == UInt8(ascii: "]"),
                host.dropFirst().dropLast().allSatisfy({ Location.ipLiteralBytes.contains($0) })
            else { return nil }
        } else if !host.allSatisfy({ Location.regNameBytes.contains($0) }) {
            return nil
        }
        return String(decoding: UnsafeBufferPointer(rebasing: host), as: UTF8.self).lowercased()
    }

    /// A host's bytes (RFC 3986 §3.2.2 reg-name: unreserved, sub-delims, `%`), non-ASCII too (an IRI's host).
    private static let regNameBytes = HostBytes("-._~!$&'()*+,;=%", nonASCII: true)
    /// Whether `bytes` are a port (RFC 3986 §3.2.3: digits, none at all included), of TCP's (up to 65535, leading
    /// zeros aside).
    public static func isPort(_ bytes: some Collection<UInt8>) -> Bool {
        guard bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
        let significant = bytes.drop { $0 == UInt8(ascii: "0") }
        return significant.count <= 5 && significant.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 65535
    }

    /// User info's bytes (RFC 3986 §3.2.1: unreserved, sub-delims, `%`, `:`; and `@`, which every parser reads as
    /// user info before the last one), non-ASCII too (an IRI's).
    private static let userInfoBytes = HostBytes("-._~!$&'()*+,;=%:@", nonASCII: true)
    /// An IP literal's bytes between its brackets (an IPv6 address, a zone id, `v1.…`).
    private static let ipLiteralBytes = HostBytes(":.%-_~!$&'()*+,;=", nonASCII: false)

    /// Letters, digits and `extra`; with `nonASCII`, every byte past 0x7F.
    struct HostBytes: Sendable {
        let extra: ByteSet
        let nonASCII: Bool

        init(_ extra: String, nonASCII: Bool) {
            self.extra = ByteSet(extra)
            self.nonASCII = nonASCII
        }

        func contains(_ byte: UInt8) -> Bool {
            if byte >= 0x80 { return nonASCII }
            let lower = byte | 0x20
            return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || extra.contains(byte)
        }
    }
}
