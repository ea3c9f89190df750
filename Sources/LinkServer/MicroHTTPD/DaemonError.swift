#if canImport(Glibc)
    import Glibc
#endif

/// A libmicrohttpd failure, turned into a Swift error where the call is made.
enum DaemonError: Error, CustomStringConvertible {
    case invalidHost(String)
    /// `setting` names the port's setting (`server.port`, `links.port`).
    case startFailed(host: String, port: UInt16, setting: String, errno: Int32)

    var description: String {
        switch self {
        case .invalidHost(let host):
            return "'\(host)' is not an IPv4 or IPv6 address"
        case .startFailed(let host, let port, let setting, let code):
            let reason = code == 0 ? "libmicrohttpd could not start" : String(cString: strerror(code))
            return "cannot listen on \(host):\(port) (\(setting)): \(reason)"
        }
    }
}
