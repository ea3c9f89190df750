/// The request headers the service reads, in fixed fields: filled in one pass over the request's headers, with no
/// dictionary to allocate and hash. Read by field (`headers[.contentType]`) or by name (`headers["content-type"]`).
struct RequestHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The names copied from each request; everything else is not read.
    static let names = [
        "content-type", "content-length", "authorization", "if-match", "if-none-match", "x-request-id", "accept",
        "host", "user-agent", "accept-language", "referer", "sec-purpose", "purpose", "x-forwarded-for",
    ]

    /// The names the API listener reads (the first ones of ``names``).
    static let apiNames = Array(names.prefix(7))

    /// The value of each field by position in ``names``; empty until one is set (a request without any of them,
    /// like most health checks, allocates nothing).
    private var values: [String?] = []

    init() {}

    init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// A header the service reads, named without a lookup: its raw value is its position in ``names``.
    enum Field: Int, CaseIterable, Sendable {
        case contentType, contentLength, authorization, ifMatch, ifNoneMatch, requestID, accept, host, userAgent
        case acceptLanguage, referer, secPurpose, purpose, forwardedFor
    }

    private static func field(_ name: String) -> Field? {
        // Callers name headers in lower case; only another spelling pays for lower-casing.
        if let slot = names.firstIndex(of: name) { return Field(rawValue: slot) }
        guard name.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return nil }
        return names.firstIndex(of: name.lowercased()).flatMap(Field.init(rawValue:))
    }

    /// The value of one of the headers the service reads (`nil` when absent).
    subscript(field: Field) -> String? {
        get { values.isEmpty ? nil : values[field.rawValue] }
        set {
            if values.isEmpty { values = Array(repeating: nil, count: RequestHeaders.names.count) }
            values[field.rawValue] = newValue
        }
    }

    static func == (lhs: RequestHeaders, rhs: RequestHeaders) -> Bool {
        Field.allCases.allSatisfy { lhs[$0] == rhs[$0] }
    }

    private static let nameBytes = names.map { Array($0.utf8) }
    /// The fields by the length of their name (at most two share one).
    private static let fieldsByLength: [[Int]] = {
        var byLength = [[Int]](repeating: [], count: (names.map(\.utf8.count).max() ?? 0) + 1)
        for (index, name) in names.enumerated() { byLength[name.utf8.count].append(index) }
        return byLength
    }()

    /// The field named `name` in any ASCII case (header names compare as libmicrohttpd compares them).
    static func field(named name: UnsafeRawBufferPointer) -> Field? {
        guard name.count < fieldsByLength.count else { return nil }
        for index in fieldsByLength[name.count] {
            let same = zip(nameBytes[index], name).allSatisfy { expected, byte in
                expected == (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
            }
            if same { return Field(rawValue: index) }
        }
        return nil
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
