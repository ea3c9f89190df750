import LinkCore

/// `/healthz`, `/readyz`, `/metrics` (API.md §6).
struct OperationsEndpoints {
    /// Whether the service is ready (store open, routes loaded, not shutting down).
    let isReady: @Sendable () -> Bool
    let metrics: ServiceMetrics

    var endpoints: [Endpoint] {
        [
            Endpoint("GET", "/healthz", .open) { _, _ in .now(.json(["status": "ok"])) },
            Endpoint("GET", "/readyz", .open) { [isReady] _, _ in
                isReady()
                    ? .now(.json(["status": "ready"]))
                    : .now(.json(["status": "unavailable"], status: 503, headers: [("Retry-After", "1")]))
            },
            Endpoint("GET", "/metrics", .open) { [metrics] _, _ in
                .now(
                    Response(
                        status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                        body: metrics.render()))
            },
        ]
    }
}
