/// A libmicrohttpd failure, turned into a Swift error where the call is made.
enum DaemonError: Error, CustomStringConvertible {
    case invalidHost(String)
    case startFailed(host: String, port: UInt16, errno: Int32)

    var description: String {
        switch self {
        case .invalidHost(let host):
            return "'\(host)' is not an IPv4 or IPv6 address"
        case .startFailed(let host, let port, let code):
            return "cannot listen on \(host):\(port) (errno \(code))"
        }
    }
}
