/// The hosts whose `http`/`https` URLs a service accepts (`links.hosts`); a URL from any other host matches
/// nothing. Bare paths and custom schemes are not affected.
///
/// Entries compare case-insensitively, ignoring a trailing dot; an entry `*.example.com` accepts every
/// subdomain of `example.com` (not `example.com` itself).
public struct HostAllowList: Sendable, Hashable {
    private var exact: Set<String>
    private var suffixes: [String]

    public init(_ hosts: [String]) {
        exact = []
        suffixes = []
        for host in hosts.map(HostAllowList.normalize) {
            if host.hasPrefix("*.") { suffixes.append(String(host.dropFirst())) } else { exact.insert(host) }
        }
    }

    /// Whether a URL with this host is accepted.
    public func allows(_ host: String) -> Bool {
        let host = HostAllowList.normalize(host)
        if exact.contains(host) { return true }
        return suffixes.contains { host.hasSuffix($0) && host.count > $0.count }
    }

    /// Whether `location` passes: bare paths and non-http(s) schemes always do.
    public func allows(_ location: Location) -> Bool {
        guard let host = location.host else { return true }
        return allows(host)
    }

    /// Whether `entry` can be an entry of the list: a host name (letters, digits, `-`, `_`, dot-separated labels,
    /// a trailing dot allowed), optionally after `*.`, an IPv4 address, or an IPv6 one (with or without brackets). A scheme, a port,
    /// a path, a `*` anywhere else or an empty entry can never match a `Host` and are configuration mistakes.
    public static func isValidEntry(_ entry: String) -> Bool {
        let address = entry.hasPrefix("[") && entry.hasSuffix("]") ? entry.dropFirst().dropLast() : Substring(entry)
        if address.contains(":") {
            // An IPv6 address (`cafe.be:8081`, a name with a port, is not one).
            return isIPv6Address(address)
        }
        var name = Substring(entry.hasPrefix("*.") ? entry.dropFirst(2) : Substring(entry))
        if name.hasSuffix(".") { name = name.dropLast() }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return !name.isEmpty
            && labels.allSatisfy { label in
                (1...63).contains(label.utf8.count)
                    && label.utf8.allSatisfy { byte in
                        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                    }
            }
    }

    /// Whether `text` is an IPv6 address as RFC 4291 §2.2 writes one: eight groups of one to four hex digits
    /// separated by `:`, one `::` standing for one or more groups of zeros, and the last two groups possibly written
    /// as a dotted IPv4 address (`::ffff:1.2.3.4`). `1::2::3`, `::1:` and `12345::1` are not.
    public static func isIPv6Address(_ text: Substring) -> Bool {
        let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return false }
        func groups(_ part: String, endsAddress: Bool) -> Int? {
            guard !part.isEmpty else { return 0 }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            var count = 0
            for (index, piece) in pieces.enumerated() {
                if endsAddress && index == pieces.count - 1 && piece.contains(".") {
                    let octets = piece.split(separator: ".", omittingEmptySubsequences: false)
                    guard octets.count == 4,
                        octets.allSatisfy({ octet in
                            (1...3).contains(octet.count) && octet.allSatisfy(\.isASCII) && octet.allSatisfy(\.isNumber)
                                && Int(octet).map { $0 <= 255 } == true
                        })
                    else { return nil }
                    count += 2
                } else {
                    guard (1...4).contains(piece.count), piece.allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
                        return nil
                    }
                    count += 1
                }
            }
            return count
        }
        if halves.count == 1 {
            return groups(halves[0], endsAddress: true) == 8
        }
        guard let head = groups(halves[0], endsAddress: false), let tail = groups(halves[1], endsAddress: true) else {
            return false
        }
        return head + tail <= 7
    }

    /// Lower-cased, without a trailing dot, and an IPv6 address without its brackets: a `Host` header's
    /// `[::1]:8081` and a URL's `[::1]` reach here as `::1` and `[::1]`, an entry may be written either way.
    private static func normalize(_ host: String) -> String {
        let lower = host.lowercased()
        if lower.hasPrefix("[") && lower.hasSuffix("]") { return String(lower.dropFirst().dropLast()) }
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }
}
