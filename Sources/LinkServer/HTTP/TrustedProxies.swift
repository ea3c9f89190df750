import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 network in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`; a bare address is a network of one).
struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    let address: ClientAddress
    let prefixLength: Int

    /// Parses `address[/prefix]`; `nil` for anything else, including host bits set past the prefix
    /// (`10.0.0.1/8` is refused rather than guessed at).
    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = ClientAddress(text: String(parts[0])) else { return nil }
        let bits = address.isIPv6 ? 128 : 32
        var prefixLength = bits
        if parts.count == 2 {
            guard let length = parts[1].decimalValue, (0...bits).contains(length) else {
                return nil
            }
            prefixLength = length
        }
        guard address.masked(to: prefixLength) == address else { return nil }
        self.address = address
        self.prefixLength = prefixLength
    }

    /// Whether `candidate` lies in the network (an IPv4-mapped IPv6 address counts as its IPv4 address).
    func contains(_ candidate: ClientAddress) -> Bool {
        let candidate = candidate.unmappingIPv4
        return candidate.isIPv6 == address.isIPv6 && candidate.masked(to: prefixLength) == address
    }

    var description: String { "\(address.text)/\(prefixLength)" }
}

/// The proxies whose connections may name their client in `X-Forwarded-For` (`links.trustedProxies`,
/// docs/links.md, "Deployment"). With none configured the header is never read: any client can write it.
struct TrustedProxies: Sendable {
    let networks: [IPNetwork]

    init(_ networks: [IPNetwork] = []) {
        self.networks = networks
    }

    func trusts(_ address: ClientAddress) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// The client of a request that arrived from `peer` carrying `forwardedFor`: starting at the peer, each trusted
    /// hop hands over to the address it reported, read from the right of the list (each proxy appends the address
    /// it saw), until an address that is not a trusted proxy — the client — or an entry that is not an address,
    /// where the last trusted hop stays the answer. Entries left of the client are the client's own words and are
    /// never read.
    func client(peer: ClientAddress?, forwardedFor: String?) -> ClientAddress? {
        guard var current = peer, let forwardedFor, !networks.isEmpty else { return peer }
        for entry in forwardedFor.split(separator: ",", omittingEmptySubsequences: false).reversed() {
            guard trusts(current), let reported = ClientAddress(forwardedEntry: entry) else { break }
            current = reported
        }
        return current
    }
}

extension ClientAddress {
    /// A numeric address in text (`203.0.113.7`, `2001:db8::1`), as `inet_pton` reads it.
    init?(text: String) {
        var words: (UInt64, UInt64) = (0, 0)
        let isIPv6 = text.utf8.contains(UInt8(ascii: ":"))
        let parsed = withUnsafeMutableBytes(of: &words) { inet_pton(isIPv6 ? AF_INET6 : AF_INET, text, $0.baseAddress) }
        guard parsed == 1 else { return nil }
        self.init(length: isIPv6 ? 16 : 4, bytes: words)
    }

    /// One entry of `X-Forwarded-For`: an address, spaces around it allowed, an IPv6 one possibly in brackets and an
    /// IPv4 or bracketed one possibly with a port (`203.0.113.7:4711`, `[2001:db8::1]:4711`), as proxies write them.
    init?(forwardedEntry entry: Substring) {
        var text = Substring(entry.trimmingSpaces)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isDigit)) else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            guard text[text.index(after: colon)...].allSatisfy(\.isDigit) else { return nil }
            text = text[..<colon]
        }
        self.init(text: String(text))
    }
}

extension Character {
    /// `0`–`9` (no other script's digits, no sign).
    fileprivate var isDigit: Bool { ("0"..."9").contains(self) }
}
