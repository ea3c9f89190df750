/// What `GET /v1/qr` asks for (API.md §10), validated: the exact text to encode and how to draw it.
///
/// Parameters: `url` (an absolute URL, `http`/`https` ones with a host, or a location starting with `/` that becomes
/// `https://<link host><location>`), `format` (`svg` | `png`, default `svg`), `size` (64–2048 pixels, default 512),
/// `margin` (0–16 modules, default 4) and `ecc` (`L` | `M` | `Q` | `H`, default `M`). Other query items are
/// ignored; for a repeated one the last wins. Every refusal is a ``LinkError`` whose details name the `field`.
public struct QRRequest: Sendable, Hashable {
    public static let sizeRange = 64...2048
    public static let marginRange = 0...16
    public static let defaultSize = 512
    public static let defaultMargin = 4

    /// The text encoded, byte for byte: the URL as given, or the location made absolute.
    public var url: String
    public var format: QRFormat
    /// Width and height of the image in pixels.
    public var size: Int
    /// The quiet zone around the symbol, in modules.
    public var margin: Int
    public var errorCorrection: QRErrorCorrection

    public init(
        url: String, format: QRFormat = .svg, size: Int = QRRequest.defaultSize,
        margin: Int = QRRequest.defaultMargin, errorCorrection: QRErrorCorrection = .medium
    ) {
        self.url = url
        self.format = format
        self.size = size
        self.margin = margin
        self.errorCorrection = errorCorrection
    }

    /// Reads and validates the query items of a request. `linkHost` is the host a bare location is made absolute
    /// with (see ``linkHost(from:)``); without one a bare location is `invalid_request`.
    ///
    /// - `url` missing or empty, without a scheme (relative without `/`), or an `http(s)` URL without a host:
    ///   `invalid_request`; one that cannot be parsed (control characters, spaces, a malformed escape):
    ///   `invalid_url` (API.md §1).
    /// - More bytes than a version-40 symbol holds at the level: `invalid_request` with `bytes`, `max`, `ecc`.
    /// - A malformed or out-of-range `format`, `size`, `margin` or `ecc`: `invalid_request`.
    public init(query items: [(String, String)], linkHost: String?) throws(LinkError) {
        var values: [String: String] = [:]
        for (key, value) in items where ["url", "format", "size", "margin", "ecc"].contains(key) {
            values[key] = value
        }
        let format = try QRRequest.choice(values["format"], field: "format", default: QRFormat.svg)
        let size = try QRRequest.integer(
            values["size"], field: "size", in: QRRequest.sizeRange, default: QRRequest.defaultSize)
        let margin = try QRRequest.integer(
            values["margin"], field: "margin", in: QRRequest.marginRange, default: QRRequest.defaultMargin)
        let ecc = try QRRequest.choice(values["ecc"], field: "ecc", default: QRErrorCorrection.medium)
        let url = try QRRequest.absoluteURL(values["url"], linkHost: linkHost)
        try QRRequest.checkCapacity(url, errorCorrection: ecc)
        self.init(url: url, format: format, size: size, margin: margin, errorCorrection: ecc)
    }

    /// The host bare locations are made absolute with: the first entry of `links.hosts` that is not a wildcard, as a
    /// URL writes it (an IPv6 address, which an entry may write as `::1`, in brackets: `https://[::1]/…`).
    public static func linkHost(from hosts: [String]?) -> String? {
        guard let host = hosts?.first(where: { !$0.contains("*") && !$0.isEmpty }) else { return nil }
        return host.contains(":") && !host.hasPrefix("[") ? "[" + host + "]" : host
    }

    /// `invalid_request` when `url` is longer than a version-40 symbol holds at `errorCorrection`.
    public static func checkCapacity(_ url: String, errorCorrection: QRErrorCorrection) throws(LinkError) {
        let bytes = url.utf8.count
        let max = errorCorrection.maxBytes
        guard bytes <= max else {
            throw LinkError(
                .invalidRequest,
                "The URL has \(bytes) bytes; a QR code at level \(errorCorrection.rawValue) holds at most \(max)",
                details: [
                    "field": "url", "bytes": .int(bytes), "max": .int(max), "ecc": .string(errorCorrection.rawValue),
                ])
        }
    }
}
