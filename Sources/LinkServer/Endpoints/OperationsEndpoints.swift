import LinkCore

/// `/healthz`, `/readyz` (API.md §6).
struct OperationsEndpoints {
    /// Whether the service is ready (store open, routes loaded, not shutting down).
    let isReady: @Sendable () -> Bool

    var endpoints: [Endpoint] {
        [
            Endpoint("GET", "/healthz", .open) { _, _ in .now(.json(["status": "ok"])) },
            Endpoint("GET", "/readyz", .open) { [isReady] _, _ in
                isReady()
                    ? .now(.json(["status": "ready"]))
                    : .now(.json(["status": "unavailable"], status: 503, headers: [("Retry-After", "1")]))
            },
        ]
    }
}
