import OrderedCollections

/// The parameter values a location gives a pattern, in pattern order (`params` in the API).
///
/// Names come from the pattern (shared, not copied), so a match allocates only the array of values.
public struct PathParameters: Sendable, Hashable, RandomAccessCollection {
    /// Parameter names in pattern order.
    public let names: [String]
    /// Decoded values, one per name; a catch-all's value is its segments joined with `/`.
    public let values: [String]

    public init(names: [String], values: [String]) {
        precondition(names.count == values.count, "one value per parameter name")
        self.names = names
        self.values = values
    }

    /// No parameters.
    public init() {
        self.init(names: [], values: [])
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { names.count }

    public subscript(position: Int) -> (name: String, value: String) {
        (names[position], values[position])
    }

    /// The value of parameter `name`.
    public subscript(name: String) -> String? {
        guard let index = names.firstIndex(of: name) else { return nil }
        return values[index]
    }

    /// Name → value, in pattern order.
    public var dictionary: OrderedDictionary<String, String> {
        OrderedDictionary(uniqueKeys: names, values: values)
    }

    /// `{"name": "value", …}` in pattern order.
    public func json() -> JSONValue {
        var object = JSONObject(minimumCapacity: names.count)
        for (name, value) in zip(names, values) { object[name] = .string(value) }
        return .object(object)
    }
}
