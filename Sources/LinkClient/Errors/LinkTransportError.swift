/// No usable answer arrived: the connection failed or timed out, the request was cancelled, or a 2xx answer did
/// not decode as the contract says.
public struct LinkTransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, broadly.
    public enum Kind: Sendable, Hashable {
        /// The request timed out.
        case timedOut
        /// The calling task was cancelled.
        case cancelled
        /// Anything else below HTTP: refused connection, DNS, TLS, a dropped connection.
        case connection
        /// An answer arrived but did not have the contract's shape.
        case invalidResponse
    }

    public let kind: Kind
    /// The operation that failed, e.g. `resolve`.
    public let operation: String
    /// The underlying error (a `URLError`, a `DecodingError`, …).
    public let underlying: any Error

    public init(kind: Kind, operation: String, underlying: any Error) {
        self.kind = kind
        self.operation = operation
        self.underlying = underlying
    }

    public var description: String { "\(operation): \(kind): \(underlying)" }
}
