extension QRRequest {
    /// The text to encode: an absolute `http(s)` URL as given, or a location starting with `/` prefixed with
    /// `https://<linkHost>`. Both are checked with ``Location/init(_:)`` so that what is encoded also resolves.
    static func absoluteURL(_ value: String?, linkHost: String?) throws(LinkError) -> String {
        guard let value, !value.isEmpty else {
            throw LinkError(
                .invalidRequest, "Parameter 'url' is required: an absolute URL or a location starting with /",
                details: ["field": "url"])
        }
        // A web URL without `//` is not an absolute one (`https:x`): said as such, before the parser refuses it.
        if let colon = value.firstIndex(of: ":"), ["http", "https"].contains(value[..<colon].lowercased()),
            !value[colon...].hasPrefix("://")
        {
            throw notAbsolute(value)
        }
        let location = try parse(value)
        if value.utf8.first == UInt8(ascii: "/") {
            guard location.scheme == nil, !value.hasPrefix("//") else { throw notAbsolute(value) }
            guard let linkHost else {
                throw LinkError(
                    .invalidRequest,
                    "A bare location needs a link host to become a URL: configure links.hosts or send an absolute URL",
                    details: ["field": "url", "url": .string(value)])
            }
            return "https://" + linkHost + value
        }
        guard let scheme = location.scheme, value.utf8.count > scheme.utf8.count + 1 else { throw notAbsolute(value) }
        // Any absolute URL (API.md §10): an app's own scheme (`myapp://users/42`) or `mailto:` too. A web URL needs
        // its host, written as one (`https:x` or `https:///x` would open nothing).
        if scheme == "http" || scheme == "https" {
            guard let host = location.host, !host.isEmpty else { throw notAbsolute(value) }
        }
        return value
    }

    /// Parses `value` as a location; `invalid_url` (details `field`, `url`, `reason`) when it cannot be.
    private static func parse(_ value: String) throws(LinkError) -> Location {
        // A raw space is not part of any URL (RFC 3986); a scanner would read it back as typed.
        if value.utf8.contains(UInt8(ascii: " ")) {
            throw LinkError(
                .invalidURL, "Invalid URL '\(value)': spaces must be percent-encoded",
                details: ["field": "url", "url": .string(value), "reason": "spaces must be percent-encoded"])
        }
        do {
            return try Location(value)
        } catch {
            let reason = error.details["reason"]?.stringValue ?? "it cannot be parsed"
            throw LinkError(
                .invalidURL, "Invalid URL '\(value)': \(reason)",
                details: ["field": "url", "url": .string(value), "reason": .string(reason)])
        }
    }

    private static func notAbsolute(_ value: String) -> LinkError {
        LinkError(
            .invalidRequest,
            "Parameter 'url' must be an absolute URL (any scheme; http and https ones with '//' and a host)"
                + " or a location starting with /",
            details: ["field": "url", "url": .string(value)])
    }

    /// A decimal integer in `range` (digits only), or `fallback` when the parameter is absent.
    static func integer(_ value: String?, field: String, in range: ClosedRange<Int>, default fallback: Int)
        throws(LinkError) -> Int
    {
        guard let value else { return fallback }
        guard let number = value.decimalValue, range.contains(number)
        else {
            throw LinkError(
                .invalidRequest,
                "Parameter '\(field)' must be an integer from \(range.lowerBound) to \(range.upperBound)",
                details: [
                    "field": .string(field), "value": .string(value), "min": .int(range.lowerBound),
                    "max": .int(range.upperBound),
                ])
        }
        return number
    }

    /// One of the cases of `T`, spelled exactly as its raw value, or `fallback` when the parameter is absent.
    static func choice<T: RawRepresentable & CaseIterable>(_ value: String?, field: String, default fallback: T)
        throws(LinkError) -> T where T.RawValue == String
    {
        guard let value else { return fallback }
        guard let choice = T(rawValue: value) else {
            throw LinkError(
                .invalidRequest,
                "Parameter '\(field)' must be one of \(T.allCases.map(\.rawValue).joined(separator: ", "))",
                details: [
                    "field": .string(field), "value": .string(value),
                    "allowed": .array(T.allCases.map { .string($0.rawValue) }),
                ])
        }
        return choice
    }
}
