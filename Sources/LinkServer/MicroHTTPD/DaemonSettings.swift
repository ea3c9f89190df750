/// How the libmicrohttpd daemon is started.
struct DaemonSettings: Sendable, Equatable {
    var host: String = "0.0.0.0"
    /// 0 picks any free port; ``Daemon/port`` reports the bound one.
    var port: UInt16 = 8080
    /// Worker threads, each with its own epoll loop.
    var threads: Int = 2
    var connectionLimit: Int = 10_000
    /// Whether requests carry the client's address (the links listener's rate limit needs it).
    var readsClientAddress = false
    /// Seconds a connection may stay idle (suspended long-polls are exempt: they are not idle in MHD's sense).
    var connectionTimeout: Int = 30
    /// Seconds a connection waiting for a request (just accepted, or kept alive after a response) has to deliver
    /// the whole request head; past it the connection is closed however steadily bytes arrive (slowloris).
    var headerTimeout: Int = 10
    /// Seconds from the end of a request head to the end of its body; past it the connection is closed.
    var bodyTimeout: Int = 60
    /// Connections one client address may hold at once; further ones are closed on accept. 0: no limit.
    var connectionLimitPerAddress: Int = 1000
    /// Bytes of per-connection memory pool; bounds the request line and headers a connection may carry.
    /// libmicrohttpd clears the used pool between requests and keeps it for the connection's life, so it is
    /// paid in CPU per request and in RSS per connection (10,000 long-polls): 16 KiB holds an 8 KiB target
    /// plus headers, where the library's 32 KiB default would double both costs.
    var connectionMemoryLimit: Int = 16 * 1024
    /// Request bodies above this are answered 413 without being read.
    var maxBodyBytes: Int = 1 << 20
    /// Request targets above this are answered 414.
    var maxURIBytes: Int = 8 * 1024
    var listenBacklog: Int = 1024
}
