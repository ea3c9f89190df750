#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port nothing listens on now: bound to port 0, read back, closed. Until something binds it: a test
/// that needs connections to be refused holds a ``RefusingLoopbackPort`` instead.
func unusedLoopbackPort() -> UInt16 {
    let (socket, port) = boundLoopbackSocket()
    close(socket)
    return port
}

/// A loopback port that refuses connections for as long as this object lives: bound (so no one else can take it, as
/// tests running beside each other take closed ports again) and never listened on.
final class RefusingLoopbackPort {
    let port: UInt16
    private let socket: Int32

    init() { (socket, port) = boundLoopbackSocket() }
    deinit { close(socket) }
}

/// A TCP socket bound to a port the kernel chose on 127.0.0.1, and that port.
private func boundLoopbackSocket() -> (Int32, UInt16) {
    let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
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
    return (probe, UInt16(bigEndian: address.sin_port))
}
