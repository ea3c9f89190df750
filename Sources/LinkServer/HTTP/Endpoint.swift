import LinkCore

/// One API operation: a method on a path template, who may call it, and what answers it.
/// A class of constants: found for every request and handed to the dispatcher, a struct of eight words was copied
/// whole (generically, as part of the table's `(method, endpoint)` pairs), a retain and a release for each reference.
final class Endpoint: Sendable {
    /// Who may call an endpoint when tokens are configured (API.md §6).
    enum Access: Sendable {
        /// Always open: health, readiness, metrics, the OpenAPI document.
        case open
        /// Needs the read token when `auth.readToken` is set (the admin token also works).
        case read
        /// Needs the admin token when `auth.adminToken` is set.
        case write
    }

    typealias Handler = @Sendable (Request, _ parameters: [String: String]) throws -> Reply

    let method: String
    /// The path template with `{name}` segments, e.g. `/v1/routes/{name}`; also the metrics label.
    let template: String
    let access: Access
    let handler: Handler
    /// Whether the handler may wait on the store (every write, and the few reads of shared state): with a shared
    /// store it runs on a ``StoreWorkers`` thread, never on a libmicrohttpd one.
    let usesStore: Bool

    init(
        _ method: String, _ template: String, _ access: Access, usesStore: Bool? = nil,
        _ handler: @escaping Handler
    ) {
        self.method = method
        self.template = template
        self.access = access
        self.handler = handler
        self.usesStore = usesStore ?? (access == .write)
    }

    /// This endpoint, marked as waiting on the store although it is not a write.
    func usingStore() -> Endpoint {
        Endpoint(method, template, access, usesStore: true, handler)
    }
}
