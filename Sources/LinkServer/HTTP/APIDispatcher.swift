import LinkCore
import Logging

/// The request dispatcher libmicrohttpd calls: finds the endpoint, checks tokens and content type, runs it, and
/// turns every error into the envelope of API.md §1. Never blocks.
final class APIDispatcher: RequestHandler {
    private let table: EndpointTable
    private let auth: TokenCheck
    private let logger: Logger
    private let accessLogLevel: Logger.Level?
    /// Run after every request (metrics). Fixed when the dispatcher is made: read on every request by every worker
    /// thread, so it takes no lock (a lock is a write to a line both cores share).
    private let observer: (@Sendable (RequestSummary) -> Void)?
    /// With a shared store: where the endpoints that wait on it run.
    private let storeWorkers: StoreWorkers?
    /// The label of a path no endpoint has.
    private let unmatched = EndpointLabel("unmatched")

    init(
        endpoints: [Endpoint], auth: TokenCheck, logger: Logger, accessLogLevel: Logger.Level?,
        storeWorkers: StoreWorkers? = nil, observer: (@Sendable (RequestSummary) -> Void)? = nil
    ) {
        self.table = EndpointTable(endpoints)
        self.observer = observer
        self.storeWorkers = storeWorkers
        self.auth = auth
        self.logger = logger
        self.accessLogLevel = RequestSummary.accessLevel(accessLogLevel, under: logger)
    }

    func handle(_ request: Request) -> (endpoint: EndpointLabel, reply: Reply) {
        switch table.match(method: request.method, path: request.path) {
        case .notFound:
            let headers = ConsoleEndpoints.headers(onRefusalOf: request.path)
            return (unmatched, .now(ErrorEnvelope.response(for: .notFound(path: request.path), headers: headers)))
        case .undecodable(let label):
            let error = LinkError(
                .invalidURL,
                "Invalid path '\(request.path)': a segment has a bad percent-escape, bytes that are not UTF-8 or a "
                    + "control character", details: ["path": .string(request.path)])
            return (
                label,
                .now(ErrorEnvelope.response(for: error, headers: ConsoleEndpoints.headers(onRefusalOf: request.path)))
            )
        case .methodNotAllowed(let label, let allowed):
            let error = LinkError.methodNotAllowed(request.method, allowed: allowed)
            let headers =
                [("Allow", allowed.joined(separator: ", "))] + ConsoleEndpoints.headers(onRefusalOf: request.path)
            return (label, .now(ErrorEnvelope.response(for: error, headers: headers)))
        case .endpoint(let endpoint, let label, let parameters):
            guard let storeWorkers, endpoint.usesStore else {
                return (label, run(endpoint, request, parameters))
            }
            // Suspend the connection while a worker waits on the shared store.
            return (
                label,
                .later { [self] pending in
                    storeWorkers.submit {
                        switch self.run(endpoint, request, parameters) {
                        case .now(let response): pending.complete(response)
                        case .later(let start): start(pending)
                        }
                    }
                }
            )
        }
    }

    private func run(_ endpoint: Endpoint, _ request: Request, _ parameters: [String: String]) -> Reply {
        do {
            try auth.authorize(request, access: endpoint.access)
            if !request.body.isEmpty, !request.hasJSONContentType {
                throw LinkError.unsupportedMediaType(request.headers[.contentType] ?? "")
            }
            return try endpoint.handler(request, parameters)
        } catch let error as LinkError {
            var headers: [(String, String)] = []
            if error.code == .unauthorized { headers.append(("WWW-Authenticate", "Bearer")) }
            return .now(ErrorEnvelope.response(for: error, headers: headers))
        } catch {
            logger.error(
                "request failed",
                metadata: ["request.id": "\(request.id)", "endpoint": "\(endpoint.template)", "error": "\(error)"])
            return .now(ErrorEnvelope.response(for: ErrorEnvelope.unexpected(error)))
        }
    }

    /// The console's security headers on a refusal of a console path (API.md §13: every console response).
    func dressRefusal(_ response: Response, target: String) -> Response {
        let headers = ConsoleEndpoints.headers(onRefusalOf: String(target.prefix { $0 != "?" }))
        guard !headers.isEmpty else { return response }
        var dressed = response
        dressed.headers += headers
        return dressed
    }

    func completed(_ summary: RequestSummary) {
        summary.log(to: logger, level: accessLogLevel)
        observer?(summary)
    }
}

extension RequestSummary {
    /// The access line's level as a dispatcher keeps it: `nil` when `logger` would drop the line anyway (the shipped
    /// config: `info`, access lines at `debug`). The logger's level is set once at start, so this is decided once,
    /// and a request pays for no look-up of it.
    static func accessLevel(_ level: Logger.Level?, under logger: Logger) -> Logger.Level? {
        guard let level, logger.logLevel <= level else { return nil }
        return level
    }

    /// The access-log line of a request (both listeners), at `level`; nothing when `level` is `nil` or below the
    /// logger's level (``accessLevel(_:under:)``, asked before the metadata is made: building the line's dictionary
    /// to have it dropped cost every request ~4% of its CPU).
    func log(to logger: Logger, level: Logger.Level?, listener: String? = nil) {
        guard let level = RequestSummary.accessLevel(level, under: logger) else { return }
        var metadata: Logger.Metadata = [
            "request.id": "\(requestID)", "http.method": "\(method)", "http.endpoint": "\(endpoint.name)",
            "http.status": "\(status)",
            "duration.us":
                "\(duration.components.attoseconds / 1_000_000_000_000 + duration.components.seconds * 1_000_000)",
            "answered": "\(answered)",
        ]
        if let listener { metadata["listener"] = "\(listener)" }
        logger.log(level: level, "request", metadata: metadata)
    }
}
