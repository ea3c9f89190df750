import OrderedCollections

/// One step of a path into data: an object key, which also indexes arrays when it is a canonical non-negative
/// integer (`"1"` reads the second element; `"01"` and `"-1"` read nothing).
struct PathSegment: Sendable, Hashable {
    let key: String
    let index: Int?

    init(_ key: String) {
        self.key = key
        self.index = PathSegment.arrayIndex(key)
    }

    /// The array index spelled by `key`, if any.
    private static func arrayIndex(_ key: String) -> Int? {
        let utf8 = key.utf8
        guard let first = utf8.first, first != UInt8(ascii: "0") || utf8.count == 1 else { return nil }
        guard utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(key)
    }
}

/// A path into data, split into segments once.
struct DataPath: Sendable, Hashable {
    let segments: [PathSegment]

    /// The empty path: the data itself.
    static let root = DataPath(segments: [])

    /// A `var` path: `"a.b.0"` walks `a`, then `b`, then the first element; `""` is the data itself.
    init(dotted path: String) {
        segments =
            path.isEmpty
            ? []
            : path.split(separator: ".", omittingEmptySubsequences: false).map {
                PathSegment(String($0))
            }
    }

    init(segments: [PathSegment]) {
        self.segments = segments
    }

    /// The `var` path a value spells: a string is split on dots, a number is read as its decimal text, `null` is
    /// the data itself; nil for anything else.
    init?(variable path: JSONValue) {
        switch path {
        case .null: self = .root
        case .string(let text): self.init(dotted: text)
        case .int, .double: self.init(dotted: StringCoercion.string(from: path))
        default: return nil
        }
    }

    /// The value at this path in `data`; nil when some step finds nothing (a `null` found is returned as such).
    func resolve(in data: JSONValue) -> JSONValue? {
        DataPath.walk(segments, from: 0, in: data)
    }

    /// Walks `segments[position...]` from `value`.
    ///
    /// Recursing on a borrowed `value` (rather than looping over a `var`) lets the optimizer read each container in
    /// place: only the value finally returned is retained, which keeps a lookup free of reference-count traffic on
    /// the containers it passes through.
    static func walk(_ segments: [PathSegment], from position: Int, in value: JSONValue) -> JSONValue? {
        guard position < segments.count else { return value }
        switch value {
        case .object(let object):
            guard let index = object.index(forKey: segments[position].key) else { return nil }
            return walk(segments, from: position + 1, in: object.values[index])
        case .array(let elements):
            guard let index = segments[position].index, index < elements.count else { return nil }
            return walk(segments, from: position + 1, in: elements[index])
        default:
            return nil
        }
    }
}
