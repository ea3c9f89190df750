#if canImport(Glibc)
    import Glibc
#endif

/// The request line's pointers as MHD hands them to the access handler (into its own read buffer).
struct RequestLine {
    var url: UnsafePointer<CChar>?
    var version: UnsafePointer<CChar>?

    /// Whether the target spans exactly `bytes` bytes of the request line: in libmicrohttpd 0.9.75 the target and
    /// the HTTP version lie in the line as received, the space between them overwritten with a NUL, so the
    /// version starts `bytes + 1` after the target unless the target holds a NUL byte of its own (which cuts every
    /// C string of it short).
    func targetSpans(_ bytes: Int) -> Bool {
        guard let url, let version else { return false }
        return UnsafeRawPointer(url).distance(to: UnsafeRawPointer(version)) == bytes + 1
    }

    /// Whether the version asks for a `Host` field: every one libmicrohttpd serves but HTTP/1.0 (RFC 9112 §3.2).
    var requiresHost: Bool {
        guard let version else { return false }
        return strcmp(version, "HTTP/1.0") != 0
    }
}

extension RequestLine {
    /// The methods returned as constants (comparing a few bytes costs less than making a string of them), the ones
    /// the metrics label by name.
    static let standardMethods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]

    /// The request method as a string: one of ``standardMethods`` without a copy, any other token copied.
    static func methodName(_ method: UnsafePointer<CChar>) -> String {
        for name in standardMethods where name.withCString({ strcmp($0, method) == 0 }) { return name }
        return String(cString: method)
    }
}
