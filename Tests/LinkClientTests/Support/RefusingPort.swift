#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port that refuses connections for as long as this value lives: bound, never listening. Unlike a port
/// that was free a moment ago, no server started meanwhile (tests run in parallel) can take it.
final class RefusingPort {
    let port: UInt16
    private let descriptor: Int32

    init() {
        (descriptor, port) = RefusingPort.boundLoopbackSocket()
    }

    deinit { close(descriptor) }

    /// A TCP socket bound to a free loopback port, and the port.
    static func boundLoopbackSocket() -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        precondition(bound, "cannot bind a loopback port")
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }
}
