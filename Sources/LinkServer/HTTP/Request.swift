/// One HTTP request as the endpoints see it: copied out of libmicrohttpd, no C pointers.
///
/// A class, though it is never changed: as a struct of fifteen words it was handled by address, and the compiler
/// copied it whole (a retain and a release for each of its six references) each time it was stored or handed on;
/// a reference is one word, and one object a request costs less than those copies.
final class Request: Sendable {
    /// The method in upper case (`GET`, `POST`, …). `HEAD` is served as `GET` by the dispatcher.
    let method: String
    /// The raw path of the request target, still percent-encoded.
    let path: String
    /// The raw query string after `?` (without it), still percent-encoded; `nil` when the target has none. A part of
    /// the request target, not a copy of it (a query of more than 15 bytes would be a string allocated per request).
    let rawQuery: Substring?
    /// The headers the service reads, keyed by lower-case name.
    let headers: RequestHeaders
    /// The request body (empty when there is none).
    let body: [UInt8]
    /// The request id (from `X-Request-Id` when the client sent a sane one, else generated).
    let id: String
    /// The client's address (read on the links listener only); `nil` when unknown.
    let client: ClientAddress?

    /// The client's numeric address (`203.0.113.7`, `2001:db8::1`); empty when unknown.
    var clientAddress: String { client?.text ?? "" }

    init(
        method: String, path: String, rawQuery: String? = nil, headers: RequestHeaders = [:], body: [UInt8] = [],
        id: String = "test", client: ClientAddress? = nil
    ) {
        self.method = method
        self.path = path
        self.rawQuery = rawQuery.map { $0[...] }
        self.headers = headers
        self.body = body
        self.id = id
        self.client = client
    }

    /// Splits a raw request target (`/a/b?x=1`) into path and query.
    init(
        method: String, target: String, headers: RequestHeaders = [:], body: [UInt8] = [], id: String = "test",
        client: ClientAddress? = nil
    ) {
        let (path, rawQuery) = Request.split(target)
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.id = id
        self.client = client
    }

    /// A request target's path and raw query (`nil` without a `?`).
    private static func split(_ target: String) -> (path: String, rawQuery: Substring?) {
        // Searched in the contiguous bytes: the generic search over the UTF-8 view costs several times more.
        guard let offset = target.withUTF8Bytes({ $0.firstIndex(of: UInt8(ascii: "?")) }) else { return (target, nil) }
        let utf8 = target.utf8
        let mark = utf8.index(utf8.startIndex, offsetBy: offset)
        return (String(target[..<mark]), target[utf8.index(after: mark)...])
    }
}
