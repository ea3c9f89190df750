import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Swift client of a LinkServer: resolve links, read resources, listen to events, claim deferred links.
///
/// One instance per service is enough: it is `Sendable`, holds no per-call state, and any number of tasks may
/// call it at once.
///
/// ```swift
/// let client = LinkClient(baseURL: URL(string: "https://api.example.com")!)
/// let resolution = try await client.resolve(url: "https://links.example.com/users/42")
/// ```
///
/// Every call throws ``LinkServiceError`` when the service answered with an error (its status and the contract's
/// `code`, `message`, `details`), and ``LinkTransportError`` when no usable answer arrived.
public final class LinkClient: Sendable {
    /// The service's API base URL (the API listener, e.g. `http://127.0.0.1:8080`).
    public let baseURL: URL
    /// The bearer token sent with every request: the admin token for writes, or the read token.
    public let token: String?
    /// The id this installation sends with deferred-link claims (API.md §9).
    public let installID: String?
    let session: URLSession
    let wire: Wire

    /// Creates a client.
    /// - Parameters:
    ///   - baseURL: the service's base URL; for an app, the API listener or the public links listener (which
    ///     serves only app opens and deferred claims, without a token).
    ///   - token: the admin or read token, when the service has one set.
    ///   - installID: sent with deferred claims so that a retried claim gets its answer again; without one, a claim
    ///     sends the id kept in `UserDefaults.standard` across launches (``InstallID/persistent(defaults:key:)``,
    ///     made on the first claim).
    ///   - session: the `URLSession` for ordinary calls. Event long-polls use a session of their own, with this
    ///     one's configuration, delegate (certificate pinning, authentication challenges, metrics) and delegate
    ///     queue, and a longer request timeout (``events(_:wait:ttl:backoff:)``). So that delegate also hears of
    ///     sessions it did not make: each event sequence's, including its `urlSession(_:didBecomeInvalidWithError:)`
    ///     when the sequence ends. A delegate that keeps state per session should compare the session it is given.
    public init(baseURL: URL, token: String? = nil, installID: String? = nil, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.token = token
        self.installID = installID
        self.session = session
        self.wire = Wire(baseURL: baseURL, token: token, session: session)
    }

    /// A wire whose requests time out after `timeout` seconds, for long-polls that outlast the session's default:
    /// the app's session as it is otherwise, its delegate included, so that pinning or a challenge handler applies
    /// to polls too.
    func wire(timeout: TimeInterval) -> Wire {
        let configuration = (session.configuration.copy() as? URLSessionConfiguration) ?? .default
        configuration.timeoutIntervalForRequest = timeout
        // A resource timeout below the poll's wait would end every idle poll early (each then released by the next).
        configuration.timeoutIntervalForResource = max(configuration.timeoutIntervalForResource, timeout)
        let polls = URLSession(
            configuration: configuration, delegate: session.delegate, delegateQueue: session.delegateQueue)
        return Wire(baseURL: baseURL, token: token, session: polls)
    }
}
