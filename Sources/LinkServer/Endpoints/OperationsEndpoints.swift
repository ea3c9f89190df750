import Foundation
import LinkCore

/// `/healthz`, `/readyz`, `/metrics` (API.md §6).
struct OperationsEndpoints {
    /// Where the service is in its life: ready once the store is open and routes are loaded.
    let stage: @Sendable () -> ReadinessFlag.Stage
    let metrics: ServiceMetrics

    /// The `/healthz` answer, the same every time: written once.
    static let healthy = Response.json(["status": "ok"])

    var endpoints: [Endpoint] {
        [
            Endpoint("GET", "/healthz", .open) { _, _ in .now(OperationsEndpoints.healthy) },
            Endpoint("GET", "/readyz", .open) { [stage] _, _ in
                switch stage() {
                case .ready: .now(.json(["status": "ready"]))
                case .starting: .now(.json(["status": "starting"], status: 503, headers: [("Retry-After", "1")]))
                case .stopping: .now(.json(["status": "stopping"], status: 503, headers: [("Retry-After", "1")]))
                case .unavailable:
                    // The shared store is lost: §1's `unavailable` (with its `Retry-After`), in its envelope too,
                    // beside the probe's status.
                    .now(ErrorEnvelope.response(for: .storeUnreachable, alongside: ["status": "unavailable"]))
                }
            },
            Endpoint("GET", "/openapi.json", .open) { _, _ in
                .now(
                    Response(
                        status: 200, headers: [("Content-Type", Response.jsonContentType)], body: OpenAPIDocument.bytes)
                )
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

/// The OpenAPI 3.1 description served at `/openapi.json`: `Resources/openapi.json`, read once.
enum OpenAPIDocument {
    static let bytes: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else {
            return Array(
                #"{"openapi": "3.1.0", "info": {"title": "LinkServer", "version": "unavailable"}, "paths": {}}"#.utf8)
        }
        return Array(data)
    }()
}
