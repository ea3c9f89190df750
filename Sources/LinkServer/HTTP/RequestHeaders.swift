/// The request headers the service reads, in fixed fields: filled by a handful of lookups per request, with no
/// dictionary to allocate and hash. Read by lower-case name: `headers["content-type"]`.
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

    private static func slot(_ name: String) -> Int? {
        // Callers name headers in lower case; only another spelling pays for lower-casing.
        if let slot = exactSlot(name) { return slot }
        return name.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
            ? exactSlot(name.lowercased()) : nil
    }

    private static func exactSlot(_ name: String) -> Int? {
        switch name {
        case "content-type": return 0
        case "content-length": return 1
        case "authorization": return 2
        case "if-match": return 3
        case "if-none-match": return 4
        case "x-request-id": return 5
        case "accept": return 6
        case "host": return 7
        case "user-agent": return 8
        case "accept-language": return 9
        case "referer": return 10
        case "sec-purpose": return 11
        case "purpose": return 12
        default: return nil
        }
    }

    /// The value of a header the service reads (`nil` when absent or not one of ``names``).
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
