/// A target or preview text of a route's `link` (API.md §7): text with `{param}`, `{location}`, `{path}` and
/// `{query}` placeholders, parsed once.
///
/// A URL template is an absolute URL whose scheme and host are literal: placeholders stand only in the path, the
/// query and the fragment, so no parameter chooses where a person is sent. Right after the host only `/`, `?`,
/// `#`, the end, `{location}` or `{path}` may follow (`https://example.com{location}`).
///
/// Each value is encoded for where it stands: in the path a parameter is one encoded segment (a catch-all keeps
/// its `/`), `{location}` and `{path}` are inserted as their canonical (already encoded) text; in the query and
/// fragment every value is percent-encoded whole (`/` → `%2F`, `?` → `%3F`, `&` → `%26`), except `{query}`
/// standing as whole query items (`?{query}`, `&{query}`), which is inserted as the canonical query. A text
/// template (preview title and description) is filled with raw values; the page writer HTML-escapes them.
public struct LinkTemplate: Sendable, Hashable, CustomStringConvertible {
    enum Placement: Sendable, Hashable {
        case path, query, fragment, text
    }

    enum Part: Sendable, Hashable {
        case text(String)
        case parameter(String, Placement, catchAll: Bool)
        case location(Placement)
        case path(Placement)
        /// `{query}`; `items` when it stands as whole query items.
        case query(Placement, items: Bool)
    }

    /// The fields, in one object: a template is copied out of its route for every click and page, and as a struct of
    /// seven words it was copied field by field through outlined copies (a retain and a release for each string).
    private final class Storage: Sendable {
        let description: String
        let parts: [Part]
        let scheme: String?
        let host: String?

        init(description: String, parts: [Part], scheme: String?, host: String?) {
            self.description = description
            self.parts = parts
            self.scheme = scheme
            self.host = host
        }
    }

    private let storage: Storage

    /// The template as written.
    public var description: String { storage.description }
    var parts: [Part] { storage.parts }
    /// The lower-cased scheme of a URL template; `nil` for a text template.
    public var scheme: String? { storage.scheme }
    /// The lower-cased host of a URL template (`apps.apple.com`); `nil` for a text template.
    public var host: String? { storage.host }

    public static func == (a: LinkTemplate, b: LinkTemplate) -> Bool {
        a.storage === b.storage
            || (a.description == b.description && a.parts == b.parts && a.scheme == b.scheme && a.host == b.host)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
        hasher.combine(parts)
        hasher.combine(scheme)
        hasher.combine(host)
    }

    /// Parses a URL template whose scheme must be one of `schemes` (lower case).
    ///
    /// - Throws: `invalid_request` with details `field` and `reason`.
    public init(url text: String, field: String, schemes: Set<String>, refusingControls: Bool = true) throws(LinkError)
    {
        func fail(_ reason: String) -> LinkError { LinkTemplate.invalid(text, field: field, reason: reason) }
        // A URL has no control character anywhere (RFC 3986): in a `Location` a CR or LF would end the header
        // (libmicrohttpd refuses it, and the redirect went out without one) and a NUL would cut it short.
        guard !refusingControls || !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw fail("a URL may not hold a control character")
        }
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else {
            throw fail("not an absolute URL")
        }
        let scheme = text[..<colon]
        guard LinkTemplate.isScheme(scheme) else { throw fail("not an absolute URL") }
        guard schemes.contains(scheme.lowercased()) else {
            throw fail("the scheme must be one of " + schemes.sorted().joined(separator: ", "))
        }
        let afterScheme = text[text.index(colon, offsetBy: 3)...]
        let authorityEnd = afterScheme.firstIndex { "/?#{}".contains($0) } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        let rest = afterScheme[authorityEnd...]
        // `https://{sub}.example.com/`, `https://www.{x}.com/`: said as such, not as a URL without a host.
        if rest.first == "{", !(rest.hasPrefix("{location}") || rest.hasPrefix("{path}")) {
            throw fail("a placeholder may not stand in the host")
        }
        // Only a web URL needs a host: an app's URL may leave it empty (`myapp:///users/42`, RFC 3986 §3.2).
        let webURL = ["http", "https"].contains(scheme.lowercased())
        guard !authority.isEmpty || !webURL,
            !authority.contains(where: { $0 == " " || $0.asciiValue.map { $0 < 0x20 } ?? false })
        else { throw fail("the URL has no host") }
        // A person is sent to it: a port that is not one (`:abc`, `:99999`) or an IP literal without its `]` is
        // refused here as in a clicked link (§2), not sent on in a `Location` (one stored by an earlier version is
        // read back, as text that is not a URL's is).
        if refusingControls, webURL, !Location.isWebAuthority(authority) { throw fail("malformed host or port") }
        var hostText = authority
        if let at = hostText.lastIndex(of: "@") { hostText = hostText[hostText.index(after: at)...] }
        if let colon = hostText.lastIndex(of: ":"), !hostText.hasSuffix("]") { hostText = hostText[..<colon] }
        let parsed = try LinkTemplate.parse(rest, start: .path, fail: fail)
        if refusingControls {
            // What is written around the placeholders goes into a `Location` header as it is: a raw space, a
            // non-ASCII character or a malformed escape there makes a header browsers read each their own way.
            // Only a web URL's host is a host name (an app's `myapp://users/…` puts a path segment there).
            let at = authority.lastIndex(of: "@")
            let userInfo = authority[..<(at ?? authority.startIndex)]
            let hostPart = at.map { authority[authority.index(after: $0)...] } ?? authority
            if let reason = LinkTemplate.misfit(userInfo, inHost: false)
                ?? LinkTemplate.misfit(hostPart, inHost: webURL)
            {
                throw fail(reason)
            }
            for case .text(let literal) in parsed {
                if let reason = LinkTemplate.misfit(Substring(literal), inHost: false) { throw fail(reason) }
            }
            // `{location}` brings its own query: what followed it in the path (`/x`, `?src=a`) would land in that
            // query whenever the clicked link has one.
            if LinkTemplate.continuesAfterPathLocation(parsed) {
                throw fail("{location} in the path ends it (it holds the query): write {path}, then ?{query}")
            }
        }
        storage = Storage(
            description: text, parts: [.text(String(text[..<authorityEnd]))] + parsed, scheme: scheme.lowercased(),
            host: hostText.lowercased())
    }

    /// Why `literal` cannot stand in a URL as it is (RFC 3986 §2: only unreserved and reserved characters, and `%`
    /// with two hex digits), or `nil`.
    static func misfit(_ literal: Substring, inHost: Bool) -> String? {
        var rest = literal
        while let character = rest.first {
            rest = rest.dropFirst()
            if character == "%" && inHost {
                // `apps%2Eapple.com` is `apps.apple.com` to a browser, but not to the checks that read the host.
                return "a host is written without percent-escapes: '%\(rest.prefix(2))'"
            } else if character == "%" {
                let escape = rest.prefix(2)
                guard escape.count == 2, escape.allSatisfy(\.isHexDigit) else {
                    return "a malformed percent-escape: '%\(escape)'"
                }
            } else if let byte = character.asciiValue, LinkTemplate.uriBytes.contains(byte) {
                continue
            } else if inHost && character.asciiValue == nil {
                return "a host is written in ASCII: '\(character)' (an internationalised name in its xn-- form)"
            } else {
                let escaped = PercentCoding.encode(String(character), allowing: .unreserved)
                return "'\(character)' must be percent-encoded: \(escaped)"
            }
        }
        return nil
    }

    /// Whether something other than a fragment follows `{location}` in the path (as for a redirect's `to`,
    /// ``LocationTemplate/continuesAfterPathLocation``).
    private static func continuesAfterPathLocation(_ parts: [Part]) -> Bool {
        guard let index = parts.firstIndex(of: .location(.path)), index + 1 < parts.count else { return false }
        if case .text(let text) = parts[index + 1], text.hasPrefix("#") { return false }
        return true
    }

    /// The bytes a URL holds as they are: unreserved, reserved (RFC 3986 §2.2, 2.3), and `%` for escapes.
    private static let uriBytes = ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")

    /// Parses a text template (a preview title or description).
    public init(text: String, field: String) throws(LinkError) {
        func fail(_ reason: String) -> LinkError { LinkTemplate.invalid(text, field: field, reason: reason) }
        storage = Storage(
            description: text, parts: try LinkTemplate.parse(Substring(text), start: .text, fail: fail), scheme: nil,
            host: nil)
    }

    private init(description: String, parts: [Part], scheme: String?, host: String?) {
        storage = Storage(description: description, parts: parts, scheme: scheme, host: host)
    }

    static func invalid(_ text: String, field: String, reason: String) -> LinkError {
        LinkError(
            .invalidRequest, "Invalid link template '\(text)' in '\(field)': \(reason)",
            details: ["field": .string(field), "template": .string(text), "reason": .string(reason)])
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z")
        else { return false }
        return text.utf8.allSatisfy { byte in
            switch byte | 0x20 {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): return true
            default: return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "+-.".utf8.contains(byte)
            }
        }
    }

    private static func parse(_ text: Substring, start: Placement, fail: (String) -> LinkError) throws(LinkError)
        -> [Part]
    {
        var parts: [Part] = []
        var placement = start
        var literal = ""
        var remaining = text
        while let character = remaining.first {
            remaining = remaining.dropFirst()
            switch character {
            case "{":
                guard let close = remaining.firstIndex(of: "}") else { throw fail("'{' without '}'") }
                let name = remaining[..<close]
                guard Pattern.isParameterName(name) else { throw fail("'{\(name)}' is not a placeholder name") }
                remaining = remaining[remaining.index(after: close)...]
                let standsAsItems =
                    placement == .query && (literal.last == "?" || literal.last == "&")
                    && (remaining.first == nil || remaining.first == "&" || remaining.first == "#")
                if !literal.isEmpty { parts.append(.text(literal)) }
                literal = ""
                switch name {
                case "location": parts.append(.location(placement))
                case "path": parts.append(.path(placement))
                case "query": parts.append(.query(placement, items: standsAsItems))
                default: parts.append(.parameter(String(name), placement, catchAll: false))
                }
            case "}":
                throw fail("'}' without '{'")
            default:
                if placement == .path && character == "?" { placement = .query }
                if (placement == .path || placement == .query) && character == "#" { placement = .fragment }
                literal.append(character)
            }
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
        return parts
    }

    /// The parameter names the template refers to, in order.
    var parameterNames: [String] {
        parts.compactMap { part in
            if case .parameter(let name, _, _) = part { return name }
            return nil
        }
    }

    /// Checks that every `{name}` is a parameter of `pattern` (else `invalid_request`) and marks catch-alls.
    public func validated(against pattern: Pattern, field: String) throws(LinkError) -> LinkTemplate {
        var parts = self.parts
        for (index, part) in parts.enumerated() {
            guard case .parameter(let name, let placement, _) = part else { continue }
            guard let segment = pattern.segments.first(where: { $0.parameterName == name }) else {
                throw LinkTemplate.invalid(
                    description, field: field, reason: "\(pattern) has no parameter '\(name)'")
            }
            if case .catchAll = segment { parts[index] = .parameter(name, placement, catchAll: true) }
        }
        return LinkTemplate(description: description, parts: parts, scheme: scheme, host: host)
    }

    /// The template filled in for `location` and its `params`.
    public func render(params: PathParameters, location: Location) -> String {
        if case .text(let text) = parts.first, parts.count == 1 { return text }
        var output = ByteOutput(capacity: 256)
        for part in parts {
            switch part {
            case .text(let text): output.append(text)
            case .location(let placement): LinkTemplate.append(location.description, placement, to: &output)
            case .path(let placement): LinkTemplate.append(location.path, placement, to: &output)
            case .query(let placement, let items):
                var query: [UInt8] = []
                location.query.encode(into: &query)
                let text = String(decoding: query, as: UTF8.self)
                LinkTemplate.append(text, items ? .text : placement, to: &output)
            case .parameter(let name, let placement, let catchAll):
                let value = params[name] ?? ""
                if placement == .path && catchAll {
                    for (index, piece) in value.split(separator: "/").enumerated() {
                        if index > 0 { output.append(UInt8(ascii: "/")) }
                        PercentCoding.encode(String(piece), allowing: .pathSegment, into: &output)
                    }
                } else if placement == .path {
                    PercentCoding.encode(value, allowing: .pathSegment, into: &output)
                } else {
                    LinkTemplate.append(value, placement, to: &output)
                }
            }
        }
        return output.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends canonical (already encoded) text: raw in the path and in text, encoded whole elsewhere.
    private static func append(_ value: String, _ placement: Placement, to output: inout ByteOutput) {
        switch placement {
        case .path, .text: output.append(value)
        case .query, .fragment: PercentCoding.encode(value, allowing: .unreserved, into: &output)
        }
    }
}
