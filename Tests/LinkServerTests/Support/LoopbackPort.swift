#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port that refuses connections for as long as this object lives: bound to a port the kernel chose on
/// 127.0.0.1 (so no one else can take it, as tests running beside each other take closed ports again) and never
/// listened on.
final class RefusingLoopbackPort {
    let port: UInt16
    private let socket: Int32

    init() {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { [socket] in
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length)
                return getsockname(socket, pointer, &length)
            }
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(socket) }
}
