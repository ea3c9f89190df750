#if canImport(Glibc)
    import Glibc
#endif

/// A numeric IPv4 or IPv6 listening address as a `sockaddr`; `0.0.0.0` binds every IPv4 interface.
struct BindAddress {
    private var v4 = sockaddr_in()
    private var v6 = sockaddr_in6()
    let isIPv6: Bool

    init(host: String, port: UInt16) throws {
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            isIPv6 = false
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            isIPv6 = true
        } else {
            throw DaemonError.invalidHost(host)
        }
    }

    /// Calls `body` with a pointer to the address.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        if isIPv6 {
            var copy = v6
            return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var copy = v4
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
