/// How the libmicrohttpd daemon is started.
struct DaemonSettings: Sendable, Equatable {
    var host: String = "0.0.0.0"
    /// 0 picks any free port; ``Daemon/port`` reports the bound one.
    var port: UInt16 = 8080
    /// The setting `port` comes from, named when it cannot be listened on.
    var portSetting = "server.port"
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

/// What a request and its answer's head take of a connection's memory pool in libmicrohttpd 0.9.75, which holds the
/// request head as read (line and fields), a list entry for each field (and each cookie of a parsed `Cookie`), and
/// then the answer's head as written out (its fields are kept outside the pool). An answer whose head no longer fits
/// is not sent at all: the connection is closed ("failed to create response header"). The estimate errs on the
/// large side by a little, so an answer it lets through fits.
enum ConnectionMemory {
    /// A field's list entry in the pool (`struct MHD_HTTP_Header`, 48 bytes on 64-bit Linux) with its alignment.
    static let perField = 64
    /// The request line's own bytes beside its target: the method, the version, spaces and the line end.
    static let requestLine = 32
    /// libmicrohttpd's own part of an answer's head: the status line, `Date`, `Content-Length`, `Connection` and the
    /// empty line (~105 bytes), with some room.
    static let answerBase = 160

    /// Whether `response`'s head fits beside a request head taking `requestBytes` of a pool of `limit` bytes. The
    /// service's own headers are small: only a `Location` is long (it may repeat the link), so the others are added
    /// up only near the bound.
    static func answerFits(_ response: Response, requestBytes: Int, requestID: String?, limit: Int) -> Bool {
        let location = response.location?.utf8.count ?? 0
        if requestBytes + location + 4096 <= limit { return true }
        return requestBytes + answerHead(response, requestID: requestID) <= limit
    }

    /// The pool bytes `response`'s head takes, with `requestID` in `X-Request-Id`.
    static func answerHead(_ response: Response, requestID: String?) -> Int {
        var bytes = answerBase
        for (name, value) in response.headers { bytes += name.utf8.count + value.utf8.count + 4 }
        if let location = response.location { bytes += 12 + location.utf8.count }
        if let requestID { bytes += 16 + requestID.utf8.count }
        return bytes
    }
}
