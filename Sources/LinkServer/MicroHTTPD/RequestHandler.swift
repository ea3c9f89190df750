import LinkCore

/// What the daemon calls: the application's dispatcher.
protocol RequestHandler: AnyObject, Sendable {
    /// Answers a complete request. Runs on an MHD worker thread and must never block.
    /// Returns the label of the endpoint that served it (for logs and metrics) and the reply.
    func handle(_ request: Request) -> (endpoint: EndpointLabel, reply: Reply)

    /// Called once per request after its response was sent (or the connection dropped).
    func completed(_ summary: RequestSummary)

    /// What is sent in place of an answer whose head would not fit the connection's memory beside the request's
    /// (`requestBytes` of it): short, so that it does. The connection is closed after it.
    func answerTooLarge(requestBytes: Int) -> Response

    /// A refusal decided before any handler saw the request (framing, `Host`, 413, 414) for `target`, as this
    /// listener sends it (the console's pages carry their security headers on every answer; the links listener
    /// answers a click's 414 with a page).
    func dressRefusal(_ response: Response, target: String) -> Response

    /// The label, for logs and metrics, of the requests this listener's daemon answered before the handler saw
    /// them (refused heads, 413, 414): `-`, `links:-` on the links listener. Read once, when the daemon is made.
    var refusalLabel: EndpointLabel { get }
}

extension RequestHandler {
    func dressRefusal(_ response: Response, target: String) -> Response { response }

    var refusalLabel: EndpointLabel { EndpointLabel("-") }

    func answerTooLarge(requestBytes: Int) -> Response {
        ErrorEnvelope.response(
            for: LinkError(
                .uriTooLong,
                "The request's target and header fields leave no room for its answer; send a shorter target or fewer "
                    + "header bytes", details: ["requestBytes": .int(requestBytes)]),
            headers: [("Connection", "close")])
    }
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
