import LinkCore

/// The errors the HTTP layer itself raises (the domain raises the rest).
extension LinkError {
    static func notFound(path: String) -> LinkError {
        LinkError(.notFound, "No API endpoint at \(path)", details: ["path": .string(path)])
    }

    /// The method is echoed up to ``echoedMethodLength`` bytes: a method is any token, as long as the request line
    /// libmicrohttpd accepts, and an answer need not repeat kilobytes of it.
    static func methodNotAllowed(_ method: String, allowed: [String]) -> LinkError {
        let echoed =
            method.utf8.count <= echoedMethodLength
            ? method : String(decoding: method.utf8.prefix(echoedMethodLength), as: UTF8.self) + "…"
        return LinkError(
            .methodNotAllowed, "Method \(echoed) is not allowed here",
            details: ["method": .string(echoed), "allowed": .array(allowed.map(JSONValue.string))])
    }

    /// The longest method a 405 repeats whole.
    static let echoedMethodLength = 64

    static func payloadTooLarge(limit: Int) -> LinkError {
        LinkError(.payloadTooLarge, "Request body is larger than \(limit) bytes", details: ["limit": .int(limit)])
    }

    static func uriTooLong(limit: Int) -> LinkError {
        LinkError(.uriTooLong, "Request target is longer than \(limit) bytes", details: ["limit": .int(limit)])
    }

    static func unsupportedMediaType(_ contentType: String) -> LinkError {
        LinkError(
            .unsupportedMediaType, "Request bodies must be application/json",
            details: ["contentType": .string(contentType)])
    }

    static func unsupportedContentCoding(_ coding: String) -> LinkError {
        LinkError(
            .unsupportedMediaType, "Request bodies must be sent without a Content-Encoding (identity)",
            details: ["contentEncoding": .string(coding)])
    }

    static func invalidJSON(_ error: JSONParseError) -> LinkError {
        LinkError(
            .invalidJSON, "Request body is not valid JSON: \(error.reason)",
            details: ["offset": .int(error.offset), "reason": .string(error.reason)])
    }

    static let missingBody = LinkError(.invalidJSON, "Request body is empty; a JSON value is required")

    static let malformedTarget = LinkError(
        .invalidRequest, "The request target must be a path starting with '/', an http(s) URL, or * for OPTIONS",
        details: ["reason": "request target"])

    static let spaceInTarget = LinkError(
        .invalidRequest, "The request target contains a space; write it %20", details: ["reason": "space in target"])

    static let nulInTarget = LinkError(
        .invalidRequest, "The request target contains a NUL byte", details: ["reason": "nul in target"])

    /// 401, saying which token the request needs (`details.needs`: `admin` for a write, `read` for a read), so that a
    /// client told "no" with a read token knows whether the token was wrong or only not enough.
    static func unauthorized(needing token: String) -> LinkError {
        LinkError(
            .unauthorized, token == "admin" ? "This change needs the admin token" : "A valid bearer token is required",
            details: ["needs": .string(token)])
    }

    /// 503: the shared store does not answer (API.md §12).
    static let storeUnreachable = LinkError(.unavailable, "The shared store cannot be reached")
    /// 503: the shared store undid the write because of a concurrent one (a deadlock, a serialization failure).
    static let rolledBack = LinkError(
        .unavailable, "The shared store undid this write because of a concurrent one; nothing was changed: try again")
    /// A write planned again and again because other instances kept changing the same data first.
    static let keptChanging = LinkError(
        .unavailable, "Other instances kept changing the same data while this write was planned; try again")
}
