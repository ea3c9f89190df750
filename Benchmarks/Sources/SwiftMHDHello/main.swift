// Bare libmicrohttpd hello-world in Swift: the baseline LinkServer's HTTP costs are compared with in
// `scripts/bench`. Same daemon flags and options as the service (see CMHD/shim.h), nothing else.
// Usage: SwiftMHDHello [PORT] [THREADS] [POOL_BYTES]; prints `listening on http://127.0.0.1:PORT` on stderr once
// bound.
import CMHD

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let port = arguments.first ?? 0
let threads = arguments.dropFirst().first ?? 2
// Bytes of per-connection memory pool: LinkServer's default (DaemonSettings.connectionMemoryLimit).
let pool = arguments.dropFirst(2).first ?? 16 * 1024

// Block the stop signals before MHD starts its threads, so they inherit the mask and sigwait gets them.
var signals = sigset_t()
sigemptyset(&signals)
sigaddset(&signals, SIGINT)
sigaddset(&signals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &signals, nil)

var address = sockaddr_in()
address.sin_family = sa_family_t(AF_INET)
address.sin_port = in_port_t(UInt16(port).bigEndian)
address.sin_addr.s_addr = inet_addr("127.0.0.1")

let flags =
    MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
    | MHD_USE_ERROR_LOG.rawValue
let daemon = withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        cmhd_start_hello(flags, $0, UInt32(threads), pool, Trampolines.access, nil)
    }
}
guard let daemon else {
    printError("SwiftMHDHello: cannot start the daemon")
    exit(1)
}
printError("listening on http://127.0.0.1:\(cmhd_bound_port(daemon))")

var received: Int32 = 0
sigwait(&signals, &received)
MHD_stop_daemon(daemon)

/// Writes a line to standard error (the C `stderr` global is not concurrency-safe in Swift 6).
func printError(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}
