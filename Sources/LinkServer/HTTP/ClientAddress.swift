#if canImport(Glibc)
    import Glibc
#endif

/// A client's numeric IP address, kept as the bytes libmicrohttpd reports and written out (`203.0.113.7`,
/// `2001:db8::1`) only when read: only the rate-limited app endpoints read it, and writing it for every click cost
/// more than the rest of reading the request head.
struct ClientAddress: Sendable, Equatable {
    /// The address in network order: the first 4 bytes for IPv4, all 16 for IPv6; the rest zero.
    private let bytes: (UInt64, UInt64)
    let isIPv6: Bool

    /// An address of `length` bytes (4 or 16; anything else is no address) held in `bytes`.
    init?(length: Int, bytes: (UInt64, UInt64)) {
        guard length == 4 || length == 16 else { return nil }
        var words = bytes
        // Only the address's own bytes count (equality, masks).
        withUnsafeMutableBytes(of: &words) { for index in length..<16 { $0[index] = 0 } }
        self.bytes = words
        self.isIPv6 = length == 16
    }

    static func == (lhs: ClientAddress, rhs: ClientAddress) -> Bool {
        lhs.isIPv6 == rhs.isIPv6 && lhs.bytes == rhs.bytes
    }

    /// The address with every bit past the first `prefixLength` cleared.
    func masked(to prefixLength: Int) -> ClientAddress {
        let bits = isIPv6 ? 128 : 32
        var words = bytes
        withUnsafeMutableBytes(of: &words) { address in
            for index in 0..<(bits / 8) {
                let kept = min(max(prefixLength - index * 8, 0), 8)
                address[index] &= kept == 0 ? 0 : ~UInt8(0) << (8 - kept)
            }
        }
        return ClientAddress(bytes: words, isIPv6: isIPv6)
    }

    /// An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, how a dual-stack listener sees an IPv4 client) as its IPv4
    /// address; any other address as it is.
    var unmappingIPv4: ClientAddress {
        guard isIPv6 else { return self }
        return withUnsafeBytes(of: bytes) { address in
            guard address[0..<10].allSatisfy({ $0 == 0 }), address[10] == 0xFF, address[11] == 0xFF else { return self }
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: address[12..<16]))
            }
            return ClientAddress(bytes: words, isIPv6: false)
        }
    }

    private init(bytes: (UInt64, UInt64), isIPv6: Bool) {
        self.bytes = bytes
        self.isIPv6 = isIPv6
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
