import LinkCore

/// `GET /v1/qr` (API.md §10): a QR code of a URL as SVG or PNG, cacheable by its entity tag.
struct QREndpoints: Sendable {
    /// The host bare locations are made absolute with (the first `links.hosts` entry that is not a wildcard).
    let linkHost: String?
    /// The images already made, by query: an image depends on its query alone (and ``linkHost``), a code printed on
    /// a poster is asked for again and again, and a 304 needs the image's length.
    let answers = KeptResponses()

    static let cacheControl = "public, max-age=86400"

    var endpoints: [Endpoint] {
        [
            Endpoint("GET", "/v1/qr", .read) { [linkHost, answers] request, _ in
                // An image (or a refusal) kept is answered again; one that could not be written (libpng) is thrown,
                // not kept.
                let response = try KeptKey.withBytes(of: request.rawQuery) { query in
                    try answers.answer(.query, key: query, serial: 0) {
                        () throws -> (value: KeptResponse, size: Int?) in
                        let response: Response
                        do {
                            response = try QREndpoints.image(request, linkHost: linkHost)
                        } catch let error as LinkError {
                            response = ErrorEnvelope.response(for: error)
                        }
                        return (KeptResponse(response: response, outcome: nil), response.keptSize)
                    }.value.response
                }
                return .now(response.unlessHeld(request.headers[.ifNoneMatch]))
            }
        ]
    }

    /// The image `request` asks for, with its entity tag.
    private static func image(_ request: Request, linkHost: String?) throws -> Response {
        let qr = try QRRequest(query: try request.queryItems(), linkHost: linkHost)
        let symbol = try QREncoder.symbol(for: qr.url, errorCorrection: qr.errorCorrection)
        let geometry = try QRGeometry(size: qr.size, modules: symbol.width, margin: qr.margin)
        let (contentType, body) =
            switch qr.format {
            case .svg: ("image/svg+xml", Array(symbol.svg(size: qr.size, margin: qr.margin).utf8))
            case .png: ("image/png", try PNGWriter.png(QRBitmap(symbol, geometry: geometry)))
            }
        return Response(
            status: 200,
            headers: [("Content-Type", contentType), ("ETag", qr.entityTag), ("Cache-Control", cacheControl)],
            body: body)
    }
}
