import OrderedCollections

/// The parameter values a location gives a pattern, in pattern order (`params` in the API).
///
/// A match allocates nothing: it keeps the pattern's ``ParameterLayout`` (shared) and the location's decoded
/// segments (shared), and reads values out of them when asked. Two references, so a copy costs two retains.
public struct PathParameters: Sendable, Hashable, RandomAccessCollection {
    /// Names and positions; `nil` when there are no parameters.
    private let layout: ParameterLayout?
    /// The values are `segments[layout.positions[i]]`; with `catchAllLast`, the last one joins every segment from
    /// its position on with `/`.
    private let segments: [String]

    public init(names: [String], values: [String]) {
        precondition(names.count == values.count, "one value per parameter name")
        layout =
            names.isEmpty ? nil : ParameterLayout(names: names, positions: Array(values.indices), catchAllLast: false)
        segments = values
    }

    /// Parameters read from a location's decoded `segments` where `layout` says.
    @usableFromInline init(layout: ParameterLayout, segments: [String]) {
        self.layout = layout
        self.segments = segments
    }

    /// No parameters.
    public init() {
        layout = nil
        segments = []
    }

    /// Parameter names in pattern order.
    public var names: [String] { layout?.names ?? [] }

    /// Decoded values, one per name; a catch-all's value is its segments joined with `/`.
    public var values: [String] {
        indices.map(value(at:))
    }

    /// The value of the parameter at `index`.
    public func value(at index: Int) -> String {
        guard let layout else { preconditionFailure("no parameters") }
        let position = layout.positions[index]
        if layout.catchAllLast && index == layout.positions.count - 1 {
            return segments[position...].joined(separator: "/")
        }
        return segments[position]
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { layout?.names.count ?? 0 }

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

    /// ``json()`` written into `writer`: each name and value passed from where it is kept rather than copied out
    /// through the collection's elements (a copy of a name retains and releases it, on the pattern's layout that
    /// every thread reads).
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if let layout {
            for index in layout.names.indices {
                writer.key(string: layout.names[index])
                if layout.catchAllLast && index == layout.names.count - 1 {
                    writer.string(value(at: index))
                } else {
                    writer.string(segments[layout.positions[index]])
                }
            }
        }
        writer.endObject()
    }

    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.names == rhs.names && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(names)
        hasher.combine(values)
    }
}

/// Where a pattern's parameters sit: their names, their segment positions, and whether the last one is a
/// catch-all. Made once per pattern and shared by every ``PathParameters`` matched with it.
@usableFromInline final class ParameterLayout: Sendable, Hashable {
    let names: [String]
    let positions: [Int]
    let catchAllLast: Bool

    init(names: [String], positions: [Int], catchAllLast: Bool) {
        self.names = names
        self.positions = positions
        self.catchAllLast = catchAllLast
    }

    /// Equal layouts are interchangeable (``Pattern/sharingLayout(_:)`` keeps one of them).
    @usableFromInline static func == (lhs: ParameterLayout, rhs: ParameterLayout) -> Bool {
        lhs === rhs
            || (lhs.catchAllLast == rhs.catchAllLast && lhs.positions == rhs.positions && lhs.names == rhs.names)
    }

    @usableFromInline func hash(into hasher: inout Hasher) {
        hasher.combine(names)
        hasher.combine(positions)
        hasher.combine(catchAllLast)
    }
}
