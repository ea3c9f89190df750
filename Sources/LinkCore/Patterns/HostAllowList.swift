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

    private static func normalize(_ host: String) -> String {
        let lower = host.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }
}
