import LinkCore

/// `GET /console` and `GET /console/{file}` (API.md §13): the web console's static files, served without a token
/// (they hold no secrets) on the API listener only, each answer with the console's security headers.
struct ConsoleEndpoints: Sendable {
    let assets: ConsoleAssets

    init(assets: ConsoleAssets = .bundled) {
        self.assets = assets
    }

    /// On every console answer: no inline script, no framing, no third-party loads, no referrer.
    static let securityHeaders = [
        ("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
    ]

    /// The headers of an answer the endpoint table gives by itself (404, 405) on `path`: the console's under
    /// `/console` ("every console response", API.md §13), none elsewhere.
    static func headers(onRefusalOf path: String) -> [(String, String)] {
        path == "/console" || path.hasPrefix("/console/") ? securityHeaders : []
    }

    /// Revalidated on every load (a new binary may serve new files under the same names), cheap with `ETag`.
    static let cacheControl = "no-cache"

    var endpoints: [Endpoint] {
        [
            Endpoint("GET", "/console", .open) { [assets] request, _ in
                .now(ConsoleEndpoints.serve("index.html", from: assets, request))
            },
            Endpoint("GET", "/console/{file}", .open) { [assets] request, parameters in
                .now(ConsoleEndpoints.serve(parameters["file"] ?? "", from: assets, request))
            },
        ]
    }

    static func serve(_ name: String, from assets: ConsoleAssets, _ request: Request) -> Response {
        guard let asset = assets.files[name] else {
            return ErrorEnvelope.response(for: .notFound(path: request.path), headers: securityHeaders)
        }
        let caching = [("ETag", asset.etag), ("Cache-Control", cacheControl)] + securityHeaders
        return Response(status: 200, headers: [("Content-Type", asset.contentType)] + caching, body: asset.body)
            .unlessHeld(request.headers[.ifNoneMatch])
    }
}
