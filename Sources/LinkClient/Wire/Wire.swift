import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The generated client (``Client``, from `openapi.json`) with the client's transport, token and error
/// handling: the one place where the facade meets the wire.
struct Wire: Sendable {
    let client: Client
    let session: URLSession

    init(baseURL: URL, token: String?, session: URLSession) {
        self.session = session
        client = Client(
            serverURL: baseURL,
            configuration: Configuration(dateTranscoder: RFC3339Transcoder()),
            transport: URLSessionTransport(configuration: .init(session: session)),
            middlewares: [AuthorizationMiddleware(token: token), DotSegmentMiddleware(), ErrorMiddleware()]
        )
    }

    /// The longest a call waits when URLSession never answers: twice the session's request timeout (which
    /// URLSession itself enforces as the longest wait for the next bytes), see ``DetachedCall``.
    var deadline: TimeInterval { 2 * session.configuration.timeoutIntervalForRequest }

    /// Runs one generated operation and gives every failure its public type: the service's error answers
    /// ``LinkServiceError`` (thrown by ``ErrorMiddleware``), everything else ``LinkTransportError``.
    ///
    /// The request runs as a ``DetachedCall``: a cancelled caller is answered `cancelled` at once, and no call
    /// outlives ``deadline``.
    func call<T: Sendable>(
        _ operation: String, started: (@Sendable (Task<Void, Never>) -> Void)? = nil,
        _ body: @escaping @Sendable (Client) async throws -> T
    ) async throws -> T {
        do {
            return try await DetachedCall.run(deadline: deadline, started: started) { [client] in
                try await body(client)
            }
        } catch let error as LinkServiceError {
            throw error
        } catch let error as LinkTransportError {
            throw error
        } catch let error as ClientError {
            throw Wire.classify(error.underlyingError, operation: operation)
        } catch {
            throw Wire.classify(error, operation: operation)
        }
    }

    static func classify(_ error: any Error, operation: String) -> any Error {
        switch error {
        case let error as LinkServiceError: return error
        case let error as LinkTransportError: return error
        case let error as ClientError: return classify(error.underlyingError, operation: operation)
        case is CancellationError: return LinkTransportError(kind: .cancelled, operation: operation, underlying: error)
        case let error as URLError:
            switch error.code {
            case .timedOut: return LinkTransportError(kind: .timedOut, operation: operation, underlying: error)
            case .cancelled: return LinkTransportError(kind: .cancelled, operation: operation, underlying: error)
            default: return LinkTransportError(kind: .connection, operation: operation, underlying: error)
            }
        case is DecodingError, is EncodingError, is JSONBridge.Missing:
            return LinkTransportError(kind: .invalidResponse, operation: operation, underlying: error)
        default:
            // The runtime's own errors (an unexpected status or content type) mean an answer off the contract.
            if (error as NSError).domain == NSURLErrorDomain {
                return LinkTransportError(kind: .connection, operation: operation, underlying: error)
            }
            return LinkTransportError(kind: .invalidResponse, operation: operation, underlying: error)
        }
    }
}
