#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port nothing listens on now: bound to port 0, read back, closed.
func unusedLoopbackPort() -> UInt16 {
    let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(probe) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(probe, pointer, length)
            return getsockname(probe, pointer, &length)
        }
    }
    return UInt16(bigEndian: address.sin_port)
}
