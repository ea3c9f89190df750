/// The request headers the service reads, in fixed fields: filled in one pass over the request's headers, with no
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
        get { values[field.rawValue] }
        set { values[field.rawValue] = newValue }
    }

    private static let nameBytes = names.map { Array($0.utf8) }

    /// The field named `name` in any ASCII case (header names compare as libmicrohttpd compares them).
    static func field(named name: UnsafeRawBufferPointer) -> Field? {
        for (index, candidate) in nameBytes.enumerated() where candidate.count == name.count {
            let same = zip(candidate, name).allSatisfy { expected, byte in
                expected == (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
            }
            if same { return Field(rawValue: index) }
        }
        return nil
    }

    /// The value of a header the service reads by name (`nil` when absent or not one of ``names``).
    subscript(name: String) -> String? {
        get { RequestHeaders.slot(name).flatMap { values[$0] } }
        set {
            guard let slot = RequestHeaders.slot(name) else { return }
            values[slot] = newValue
        }
    }
}
