/// The service answered with an error (API.md §1): its HTTP status and the body's `code`, `message` and `details`.
///
/// Every non-2xx answer becomes this error, whatever the endpoint; an answer that is not the contract's error
/// shape (a proxy's HTML page, say) still does, with the code ``ErrorCode/unknown`` and the body's start as the
/// message. Failures where no answer arrived are ``LinkTransportError``.
public struct LinkServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status, e.g. 404.
    public let status: Int
    /// The contract's code, e.g. ``ErrorCode/noMatch``.
    public let code: ErrorCode
    /// The human-readable message.
    public let message: String
    /// The details object (`null` when the answer had none).
    public let details: JSONValue
    /// `Retry-After` in seconds, when the answer carried one (429 `rate_limited`, 503 `unavailable`).
    public let retryAfter: Int?

    public init(status: Int, code: ErrorCode, message: String, details: JSONValue = .null, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.retryAfter = retryAfter
    }

    public var description: String { "\(status) \(code): \(message)" }
}

extension ErrorCode {
    /// Given to an error answer whose body is not the contract's error shape.
    public static let unknown: ErrorCode = "unknown"
}
