/// What the daemon calls: the application's dispatcher.
protocol RequestHandler: AnyObject, Sendable {
    /// Answers a complete request. Runs on an MHD worker thread and must never block.
    /// Returns the label of the endpoint that served it (for logs and metrics) and the reply.
    func handle(_ request: Request) -> (endpoint: EndpointLabel, reply: Reply)

    /// Called once per request after its response was sent (or the connection dropped).
    func completed(_ summary: RequestSummary)
}

/// A finished request, for the access log and metrics.
struct RequestSummary: Sendable {
    var method: String
    var target: String
    var endpoint: EndpointLabel
    var status: Int
    var duration: Duration
    var requestID: String
    /// False when the connection ended before a response was sent (client gone, timeout, shutdown).
    var answered: Bool
}
