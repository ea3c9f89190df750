import OrderedCollections

/// One `key=value` item of a query, both decoded.
public struct QueryItem: Sendable, Hashable {
    public var name: String
    public var value: String
    /// Whether the item was read without `=` (`?flag`), so that it is written back so; any other item is written
    /// with it, also when its value is empty (`q=`). Not part of the item's identity: `flag` and `flag=` both mean
    /// the value `""` (API.md §2).
    public var bare: Bool

    public init(_ name: String, _ value: String, bare: Bool = false) {
        self.name = name
        self.value = value
        self.bare = bare && value.isEmpty
    }

    public static func == (lhs: QueryItem, rhs: QueryItem) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
    }
}

/// A location's query (API.md §2): every item in order, and a map where the last duplicate wins.
public struct Query: Sendable, Hashable {
    /// Every item in order, duplicates included (`queryItems` in the API).
    public var items: [QueryItem]

    public init(_ items: [QueryItem] = []) {
        self.items = items
    }

    public var isEmpty: Bool { items.isEmpty }

    /// Key → value where the last duplicate wins, keys in order of first appearance (`query` in the API).
    public var map: OrderedDictionary<String, String> {
        var map = OrderedDictionary<String, String>(minimumCapacity: items.count)
        for item in items { map[item.name] = item.value }
        return map
    }

    /// ``map`` as a JSON object of strings (an answer's `query`), written without building the map: a query has a
    /// handful of items, and finding each name's first and last item among them is cheaper than hashing them.
    func writeMap(to writer: inout JSONWriter) {
        guard items.count <= 16 else { return writer.stringObject(map.lazy.map { ($0.key, $0.value) }) }
        writer.beginObject()
        for index in items.indices {
            let name = items[index].name
            // At its first appearance only, with its last value.
            if items[..<index].contains(where: { $0.name == name }) { continue }
            writer.key(string: name)
            writer.string((items[(index + 1)...].last { $0.name == name } ?? items[index]).value)
        }
        writer.endObject()
    }

    /// The encoded query without the leading `?`: `tab=posts&q=a%26b`; empty for no items.
    ///
    /// Keys and values use the query-component encoding; an item read without `=` is written so (`flag`), any
    /// other with it (`q=` for an empty value); an item with an empty key and value is left out.
    public var encoded: String {
        var output: [UInt8] = []
        encode(into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    func encode(into output: inout [UInt8]) {
        var first = true
        for item in items where !(item.name.isEmpty && item.value.isEmpty) {
            if !first { output.append(UInt8(ascii: "&")) }
            first = false
            PercentCoding.encode(item.name, allowing: .queryComponent, into: &output)
            if !item.bare {
                output.append(UInt8(ascii: "="))
                PercentCoding.encode(item.value, allowing: .queryComponent, into: &output)
            }
        }
    }
}

extension Query {
    /// Parses a raw query (without `?`): split on `&`, the first `=` separates key and value, both are
    /// percent-decoded as UTF-8, `+` is a literal plus, a key without `=` has the value `""`, and empty items
    /// (`a=1&&b=2`, a bare `=`) are skipped. Decoded control characters are kept (they are data here).
    ///
    /// A malformed escape or invalid UTF-8 is `invalid_url`.
    public init(parsing raw: String) throws(LinkError) {
        self = try raw.withUTF8Buffer { (buffer) throws(LinkError) -> Query in try Query(bytes: buffer) }
    }

    /// ``init(parsing:)`` for a request's own query string, whose keys are the request's fields: a value that
    /// cannot be decoded also names its key in `details.field`, as the endpoints' other refusals of a field do.
    public init(parsingRequestQuery raw: Substring) throws(LinkError) {
        try self.init(parsing: raw, namingFields: true)
    }

    /// ``init(parsing:)`` for a part of a string, read in place within the whole string's bytes.
    public init(parsing raw: Substring) throws(LinkError) {
        try self.init(parsing: raw, namingFields: false)
    }

    private init(parsing raw: Substring, namingFields: Bool) throws(LinkError) {
        let utf8 = raw.base.utf8
        let start = utf8.distance(from: utf8.startIndex, to: raw.startIndex)
        let end = start + raw.utf8.count
        self = try raw.base.withUTF8Buffer { (buffer) throws(LinkError) -> Query in
            try Query(bytes: UnsafeBufferPointer(rebasing: buffer[start..<end]), namingFields: namingFields)
        }
    }

    init(bytes: UnsafeBufferPointer<UInt8>, namingFields: Bool = false) throws(LinkError) {
        var items: [QueryItem] = []
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "&") { end += 1 }
            // Empty items (`a=1&&b=2`) and bare `=` carry nothing and are skipped.
            if end > start && !(end == start + 1 && bytes[start] == UInt8(ascii: "=")) {
                var equals = start
                while equals < end && bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                let name = try Query.decode(UnsafeBufferPointer(rebasing: bytes[start..<equals]))
                var value = ""
                if equals < end {
                    do {
                        value = try Query.decode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]))
                    } catch {
                        var error = error
                        if namingFields { error.details["field"] = .string(name) }
                        throw error
                    }
                }
                items.append(QueryItem(name, value, bare: equals == end))
            }
            start = end + 1
        }
        self.init(items)
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(LinkError) -> String {
        do {
            return try PercentCoding.decode(bytes, allowControls: true)
        } catch {
            let text = String(decoding: bytes, as: UTF8.self)
            let reason = error == .malformedEscape ? "malformed percent-escape" : "escapes do not decode to UTF-8"
            throw LinkError(
                .invalidURL, "Invalid query component '\(text)': \(reason)",
                details: ["component": .string(text), "reason": .string(reason)])
        }
    }
}
