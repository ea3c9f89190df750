/// The one reader of JSON request bodies and definitions: reads the fields of an object, naming each field by its
/// path (`routes[0].redirect[1].to`) in errors, and refusing fields it was not told about. Every `invalid_request`
/// about a body's fields is worded here, with `details.field`:
///
/// - not an object: "Field 'x' must be an object, not array" (`expected`);
/// - a wrong type: "Field 'x' must be a string, not number" (`expected`);
/// - a missing field: "Field 'x' is required";
/// - an unknown field: "Unknown field 'x'" (`reason`, and the `allowed` fields when the reader was given them).
///
/// An explicit `null` is a wrong type ("must be a string, not null"), as the OpenAPI document's request schemas say,
/// except in readers made with `nullMeansAbsent`: route, link and resource definitions, whose optional members the
/// document marks nullable (`"name": null` is a route without a name).
public struct JSONFields: Sendable {
    public let object: JSONObject
    /// The path of the object itself; empty for a body's root.
    public let path: String
    /// `invalid_request` for definitions and requests, `invalid_rule` inside redirect rules.
    public let code: LinkError.Code
    /// Whether the typed readers take an explicit `null` for an absent member.
    public let nullMeansAbsent: Bool

    /// `allowed`, when given: the fields the object may have; any other is an error.
    public init(
        _ value: JSONValue, path: String = "", code: LinkError.Code = .invalidRequest, allowed: Set<String>? = nil,
        nullMeansAbsent: Bool = false
    ) throws(LinkError) {
        self.path = path
        self.code = code
        self.nullMeansAbsent = nullMeansAbsent
        guard case .object(let object) = value else {
            throw JSONFields.wrongType(path.isEmpty ? "body" : path, expected: "an object", got: value, code: code)
        }
        self.object = object
        if let allowed { try rejectUnknown(allowed) }
    }

    /// The path of member `key`.
    public func field(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// Member `key`; `nil` when absent (an explicit `null` is returned as `.null`).
    public subscript(key: String) -> JSONValue? { object[key] }

    /// Member `key` for the typed readers: `nil` when absent, or `null` in a reader made with `nullMeansAbsent`.
    private func member(_ key: String) -> JSONValue? {
        guard let value = object[key], !(nullMeansAbsent && value.isNull) else { return nil }
        return value
    }

    /// Whether member `key` is present (even as `null`).
    public func has(_ key: String) -> Bool { object[key] != nil }

    public func string(_ key: String) throws(LinkError) -> String? {
        guard let value = member(key) else { return nil }
        guard case .string(let string) = value else { throw mismatch(key, "a string", value) }
        return string
    }

    public func requiredString(_ key: String) throws(LinkError) -> String {
        guard let string = try string(key) else {
            throw LinkError(code, "Field '\(field(key))' is required", details: ["field": .string(field(key))])
        }
        return string
    }

    public func bool(_ key: String) throws(LinkError) -> Bool? {
        guard let value = member(key) else { return nil }
        guard case .bool(let bool) = value else { throw mismatch(key, "a boolean", value) }
        return bool
    }

    public func array(_ key: String) throws(LinkError) -> [JSONValue]? {
        guard let value = member(key) else { return nil }
        guard case .array(let array) = value else { throw mismatch(key, "an array", value) }
        return array
    }

    /// An integer within `range`; `nil` when absent.
    public func int(_ key: String, in range: ClosedRange<Int>) throws(LinkError) -> Int? {
        guard let value = member(key) else { return nil }
        let expected =
            range == Int.min...Int.max ? "an integer" : "an integer from \(range.lowerBound) to \(range.upperBound)"
        guard let int = value.intValue else { throw mismatch(key, expected, value) }
        guard range.contains(int) else {
            throw LinkError(
                code, "Field '\(field(key))' must be \(expected), not \(int)",
                details: ["field": .string(field(key)), "expected": .string(expected)])
        }
        return int
    }

    /// Throws for the first member whose key is not in `known`.
    public func rejectUnknown(_ known: Set<String>) throws(LinkError) {
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw LinkError(
                code, "Unknown field '\(field(unknown))'",
                details: [
                    "field": .string(field(unknown)), "reason": .string("unknown field"),
                    "allowed": .array(known.sorted().map(JSONValue.string)),
                ])
        }
    }

    /// A `wrong type` error for member `key`.
    public func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> LinkError {
        JSONFields.wrongType(field(key), expected: expected, got: value, code: code)
    }

    public static func wrongType(_ field: String, expected: String, got value: JSONValue, code: LinkError.Code)
        -> LinkError
    {
        LinkError(
            code, "Field '\(field)' must be \(expected), not \(value.typeName)",
            details: ["field": .string(field), "expected": .string(expected)])
    }
}
