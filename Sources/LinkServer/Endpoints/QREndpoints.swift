import LinkCore

/// `GET /v1/qr` (API.md §10): a QR code of a URL as SVG or PNG, cacheable by its entity tag.
struct QREndpoints: Sendable {
    /// The host bare locations are made absolute with (the first `links.hosts` entry that is not a wildcard).
    let linkHost: String?

    static let cacheControl = "public, max-age=86400"

    var endpoints: [Endpoint] {
        [
            Endpoint("GET", "/v1/qr", .read) { [linkHost] request, _ in
                let qr = try QRRequest(query: try request.queryItems(), linkHost: linkHost)
                let symbol = try QREncoder.symbol(for: qr.url, errorCorrection: qr.errorCorrection)
                let geometry = try QRGeometry(size: qr.size, modules: symbol.width, margin: qr.margin)
                let caching = [("ETag", qr.entityTag), ("Cache-Control", QREndpoints.cacheControl)]
                let (contentType, body) =
                    switch qr.format {
                    case .svg: ("image/svg+xml", Array(symbol.svg(size: qr.size, margin: qr.margin).utf8))
                    case .png: ("image/png", try PNGWriter.png(QRBitmap(symbol, geometry: geometry)))
                    }
                // The image is made for a 304 too: its length is the only one a 304 may declare.
                if IfNoneMatch.matches(request.headers[.ifNoneMatch], entityTag: qr.entityTag) {
                    return .now(.notModified(headers: caching, representation: body))
                }
                return .now(Response(status: 200, headers: [("Content-Type", contentType)] + caching, body: body))
            }
        ]
    }
}
