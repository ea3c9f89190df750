import OrderedCollections

/// The parameter values a location gives a pattern, in pattern order (`params` in the API).
///
/// A match allocates nothing: it keeps the pattern's names and parameter positions (shared) and the location's
/// decoded segments (shared), and reads values out of them when asked.
public struct PathParameters: Sendable, Hashable, RandomAccessCollection {
    /// Parameter names in pattern order.
    public let names: [String]
    private let storage: Storage

    private enum Storage: Sendable {
        case values([String])
        /// Values are `segments[positions[i]]`; with `catchAllLast`, the last one joins every segment from its
        /// position on with `/`.
        case segments([String], positions: [Int], catchAllLast: Bool)
    }

    public init(names: [String], values: [String]) {
        precondition(names.count == values.count, "one value per parameter name")
        self.names = names
        storage = .values(values)
    }

    /// Parameters read from a location's decoded `segments` at the pattern's parameter `positions`.
    init(names: [String], segments: [String], positions: [Int], catchAllLast: Bool) {
        self.names = names
        storage = .segments(segments, positions: positions, catchAllLast: catchAllLast)
    }

    /// No parameters.
    public init() {
        self.init(names: [], values: [])
    }

    /// Decoded values, one per name; a catch-all's value is its segments joined with `/`.
    public var values: [String] {
        if case .values(let values) = storage { return values }
        return indices.map(value(at:))
    }

    /// The value of the parameter at `index`.
    public func value(at index: Int) -> String {
        switch storage {
        case .values(let values):
            return values[index]
        case .segments(let segments, let positions, let catchAllLast):
            let position = positions[index]
            if catchAllLast && index == positions.count - 1 {
                return segments[position...].joined(separator: "/")
            }
            return segments[position]
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { names.count }

    public subscript(position: Int) -> (name: String, value: String) {
        (names[position], value(at: position))
    }

    /// The value of parameter `name`.
    public subscript(name: String) -> String? {
        guard let index = names.firstIndex(of: name) else { return nil }
        return value(at: index)
    }

    /// Name → value, in pattern order.
    public var dictionary: OrderedDictionary<String, String> {
        OrderedDictionary(uniqueKeys: names, values: values)
    }

    /// `{"name": "value", …}` in pattern order.
    public func json() -> JSONValue {
        var object = JSONObject(minimumCapacity: names.count)
        for index in indices { object[names[index]] = .string(value(at: index)) }
        return .object(object)
    }

    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.names == rhs.names && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(names)
        hasher.combine(values)
    }
}
