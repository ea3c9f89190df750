import Foundation

/// Any JSON value, as the service stores and returns it: route destinations, resource values, event extras, slot
/// payloads, rule data and results.
///
/// Decode it into the app's own types with ``decode(_:decoder:)``; build one with literals
/// (`["screen": "Profile", "id": 42]`) or from any `Encodable` with ``init(encoding:encoder:)``.
///
/// Numbers come in two cases: one that Foundation's `JSONDecoder` reads as an `Int64` is an ``integer(_:)``, exact
/// over 64 bits (an id such as `9007199254740993` is not rounded; `1.0` and `1e2` are read as integers too); any
/// other is a ``number(_:)``, the nearest `Double`. The service writes its integers without a fraction. The two
/// compare as numbers (`.integer(3) == .number(3.0)`) and hash alike. Read either with ``numberValue`` (a
/// `Double`) or ``integerValue`` (an `Int64`, when the number is whole).
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// A whole number, exact (what `JSONDecoder` reads as an `Int64`).
    case integer(Int64)
    /// A number with a fraction or an exponent (or a whole number built as a `Double`).
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value of `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` when this is an array and the index is in range, else `nil`.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number, when this is one (an ``integer(_:)`` past 2^53 as the nearest `Double`).
    public var numberValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .number(let number): number
        default: nil
        }
    }

    /// The number, when this is a whole one that fits 64 bits: an ``integer(_:)``, or a ``number(_:)`` without a
    /// fraction.
    public var integerValue: Int64? {
        switch self {
        case .integer(let integer): integer
        case .number(let number): Int64(exactly: number)
        default: nil
        }
    }

    /// The Boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// This value, or `nil` when it is `null` (note that `nil` written where a `JSONValue` is expected is `.null`).
    public var nonNull: JSONValue? { isNull ? Optional.none : self }

    /// Decodes this value into `type`, for instance an app's own `Destination` struct.
    public func decode<T: Decodable>(_ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: JSONEncoder().encode(self))
    }

    /// Encodes `value` (any `Encodable`) into a JSON value.
    public init(encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(value))
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .integer(let integer): try container.encode(integer)
        case .number(let number):
            // Whole numbers go out without a fraction (`42`, not `42.0`), as a JSON producer would write them.
            if number.rounded() == number, abs(number) < 9_007_199_254_740_992 {
                try container.encode(Int64(number))
            } else {
                try container.encode(number)
            }
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: Hashable {
    /// Values of the same kind compare as Swift compares them; an ``integer(_:)`` equals a ``number(_:)`` of the same
    /// value (`.integer(3) == .number(3.0)`), since JSON has one kind of number.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let left), .bool(let right)): left == right
        case (.integer(let left), .integer(let right)): left == right
        case (.number(let left), .number(let right)): left == right
        case (.integer(let integer), .number(let number)), (.number(let number), .integer(let integer)):
            Int64(exactly: number) == integer
        case (.string(let left), .string(let right)): left == right
        case (.array(let left), .array(let right)): left == right
        case (.object(let left), .object(let right)): left == right
        default: false
        }
    }

    /// A whole number hashes as its `Int64` whichever case holds it, so that equal values hash alike.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let bool):
            hasher.combine(1)
            hasher.combine(bool)
        case .integer(let integer):
            hasher.combine(2)
            hasher.combine(integer)
        case .number(let number):
            if let integer = Int64(exactly: number) {
                hasher.combine(2)
                hasher.combine(integer)
            } else {
                hasher.combine(3)
                hasher.combine(number)
            }
        case .string(let string):
            hasher.combine(4)
            hasher.combine(string)
        case .array(let array):
            hasher.combine(5)
            hasher.combine(array)
        case .object(let object):
            hasher.combine(6)
            hasher.combine(object)
        }
    }
}
