/// The request headers the service reads, in fixed fields: filled by a handful of lookups per request, with no
/// dictionary to allocate and hash. Read by field (`headers[.contentType]`) or by name (`headers["content-type"]`).
struct RequestHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The names copied from each request; everything else is not read.
    static let names = [
        "content-type", "content-length", "authorization", "if-match", "if-none-match", "x-request-id", "accept",
        "host", "user-agent", "accept-language", "referer", "sec-purpose", "purpose",
    ]

    /// The names the API listener reads (the first ones of ``names``).
    static let apiNames = Array(names.prefix(7))

    private var values: [String?] = Array(repeating: nil, count: names.count)

    init() {}

    init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// A header the service reads, named without a lookup: its raw value is its position in ``names``.
    enum Field: Int, CaseIterable, Sendable {
        case contentType, contentLength, authorization, ifMatch, ifNoneMatch, requestID, accept, host, userAgent
        case acceptLanguage, referer, secPurpose, purpose
    }

    private static func slot(_ name: String) -> Int? {
        // Callers name headers in lower case; only another spelling pays for lower-casing.
        if let slot = names.firstIndex(of: name) { return slot }
        return name.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
            ? names.firstIndex(of: name.lowercased()) : nil
    }

    /// The value of one of the headers the service reads (`nil` when absent).
    subscript(field: Field) -> String? {
        values[field.rawValue]
    }

    /// The value of a header the service reads by name (`nil` when absent or not one of ``names``).
    subscript(name: String) -> String? {
        get { RequestHeaders.slot(name).flatMap { values[$0] } }
        set {
            guard let slot = RequestHeaders.slot(name) else { return }
            values[slot] = newValue
        }
    }

    /// Sets the header at position `index` of ``names``.
    mutating func set(at index: Int, _ value: String) {
        values[index] = value
    }
}
