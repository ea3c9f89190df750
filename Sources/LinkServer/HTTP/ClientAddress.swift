#if canImport(Glibc)
    import Glibc
#endif

/// A client's numeric IP address, kept as the bytes libmicrohttpd reports and written out (`203.0.113.7`,
/// `2001:db8::1`) only when read: only the rate-limited app endpoints read it, and writing it for every click cost
/// more than the rest of reading the request head.
struct ClientAddress: Sendable {
    /// The address in network order: the first 4 bytes for IPv4, all 16 for IPv6.
    private let bytes: (UInt64, UInt64)
    private let isIPv6: Bool

    /// An address of `length` bytes (4 or 16; anything else is no address) held in `bytes`.
    init?(length: Int, bytes: (UInt64, UInt64)) {
        guard length == 4 || length == 16 else { return nil }
        self.bytes = bytes
        self.isIPv6 = length == 16
    }

    /// The numeric text form (`inet_ntop`'s).
    var text: String {
        withUnsafeBytes(of: bytes) { address in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                guard let text = inet_ntop(isIPv6 ? AF_INET6 : AF_INET, address.baseAddress, buffer.baseAddress, 64)
                else { return "" }
                return String(cString: text)
            }
        }
    }
}
