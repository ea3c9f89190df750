/// The request headers the service reads, in fixed fields: filled in one pass over the request's headers, with no
/// dictionary to allocate and hash. Read by field (`headers[.contentType]`) or by name (`headers["content-type"]`).
struct RequestHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The names copied from each request; everything else is not read.
    static let names = [
        "content-type", "content-length", "authorization", "if-match", "if-none-match", "x-request-id", "accept",
        "origin", "host", "user-agent", "accept-language", "referer", "sec-purpose", "purpose", "x-forwarded-for",
    ]

    /// The names the API listener reads (the first ones of ``names``).
    static let apiNames = Array(names.prefix(8))

    /// The values present, in the order they were set: a request carries a few of the fields (`Host`, `User-Agent`,
    /// `Accept`…), so an array of those alone is made and destroyed, not one of an optional for every name. Empty
    /// until one is set (a request without any allocates nothing).
    private var values: [String] = []
    /// Where each field's value is in ``values``: four bits per field by raw value, the position plus one (0: absent).
    private var positions: UInt64 = 0

    init() {}

    init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// A header the service reads, named without a lookup: its raw value is its position in ``names``.
    enum Field: Int, CaseIterable, Sendable {
        case contentType, contentLength, authorization, ifMatch, ifNoneMatch, requestID, accept, origin, host
        case userAgent, acceptLanguage, referer, secPurpose, purpose, forwardedFor
    }

    private static func field(_ name: String) -> Field? {
        // Callers name headers in lower case; only another spelling pays for lower-casing.
        if let slot = names.firstIndex(of: name) { return Field(rawValue: slot) }
        guard name.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return nil }
        return names.firstIndex(of: name.lowercased()).flatMap(Field.init(rawValue:))
    }

    /// The value of one of the headers the service reads (`nil` when absent).
    subscript(field: Field) -> String? {
        get {
            let position = Int(truncatingIfNeeded: positions >> (4 * UInt64(field.rawValue)) & 0xF)
            return position == 0 ? nil : values[position - 1]
        }
        set {
            let shift = 4 * UInt64(field.rawValue)
            let position = Int(truncatingIfNeeded: positions >> shift & 0xF)
            switch (position, newValue) {
            case (0, nil):
                return
            case (0, let value?):
                // Room for the usual few at once: growing from one slot would allocate again for the second.
                if values.isEmpty { values.reserveCapacity(4) }
                values.append(value)
                positions |= UInt64(values.count) << shift
            case (_, let value?):
                values[position - 1] = value
            case (_, nil):
                // Rare (requests are built, not edited): the later values move down one place.
                values.remove(at: position - 1)
                positions &= ~(0xF << shift)
                for other in Field.allCases {
                    let at = 4 * UInt64(other.rawValue)
                    if positions >> at & 0xF > position { positions -= 1 << at }
                }
            }
        }
    }

    static func == (lhs: RequestHeaders, rhs: RequestHeaders) -> Bool {
        Field.allCases.allSatisfy { lhs[$0] == rhs[$0] }
    }

    /// The field named `name` in any ASCII case (header names compare as libmicrohttpd compares them): by length
    /// first, then by bytes. A switch over constant names, not a search of ``names``: this runs for every header of
    /// every request (`RequestHeadersTests` holds the two to the same answers).
    static func field(named name: UnsafeRawBufferPointer) -> Field? {
        let bytes = name.assumingMemoryBound(to: UInt8.self)
        // Only called with a candidate of the name's length (the switch below).
        func named(_ candidate: StaticString, _ field: Field) -> Field? {
            bytes.starts(caseInsensitiveWith: candidate) ? field : nil
        }
        switch name.count {
        case 4: return named("host", .host)
        case 6: return named("accept", .accept) ?? named("origin", .origin)
        case 7: return named("referer", .referer) ?? named("purpose", .purpose)
        case 8: return named("if-match", .ifMatch)
        case 10: return named("user-agent", .userAgent)
        case 11: return named("sec-purpose", .secPurpose)
        case 12: return named("content-type", .contentType) ?? named("x-request-id", .requestID)
        case 13: return named("authorization", .authorization) ?? named("if-none-match", .ifNoneMatch)
        case 14: return named("content-length", .contentLength)
        case 15: return named("accept-language", .acceptLanguage) ?? named("x-forwarded-for", .forwardedFor)
        default: return nil
        }
    }

    /// The value of a header the service reads by name (`nil` when absent or not one of ``names``).
    subscript(name: String) -> String? {
        get { RequestHeaders.field(name).flatMap { self[$0] } }
        set {
            guard let field = RequestHeaders.field(name) else { return }
            self[field] = newValue
        }
    }
}
