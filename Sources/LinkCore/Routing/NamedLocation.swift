import OrderedCollections

/// A location given by route name: `{"name", "params", "query"}` (`POST /v1/locate`, resolve by name).
public struct NamedLocation: Sendable, Hashable {
    public var name: String
    public var params: ParameterValues
    /// Query items in order.
    public var query: [QueryItem]

    public init(name: String, params: ParameterValues = [:], query: [QueryItem] = []) {
        self.name = name
        self.params = params
        self.query = query
    }

    /// The members of a named location (a set built once: from an array literal it was built on every request).
    static let fieldNames: Set<String> = ["name", "params", "query"]

    /// Decodes a `POST /v1/locate` body; unknown fields and wrong types are `invalid_request`.
    public init(json: JSONValue) throws(LinkError) {
        let fields = try JSONFields(json, path: "", nullMeansAbsent: true)
        try fields.rejectUnknown(NamedLocation.fieldNames)
        try self.init(fields: fields)
    }

    /// Reads `name` (required), `params` and `query` from a request object.
    ///
    /// `params` is an object whose values are strings, or numbers and booleans taken as their text (``text(_:field:)``).
    /// `query` is an object (a value may be an array, giving one item per element) or an array of
    /// `[key, value]` pairs (to repeat keys in any order).
    public init(fields: JSONFields) throws(LinkError) {
        name = try fields.requiredString("name")
        try NamedLocation.checkSpacing(name, field: fields.field("name"))
        params = [:]
        if let value = fields["params"], !value.isNull {
            guard case .object(let object) = value else { throw fields.mismatch("params", "an object", value) }
            for (key, value) in object {
                params[key] = try NamedLocation.text(value, field: fields.field("params") + "." + key)
            }
        }
        query = try NamedLocation.queryItems(fields, "query")
    }

    /// A name with leading or trailing spaces can never be registered; say so instead of `unknown_name`.
    public static func checkSpacing(_ name: String, field: String) throws(LinkError) {
        guard name.utf8.first == UInt8(ascii: " ") || name.utf8.last == UInt8(ascii: " ") else { return }
        throw LinkError(
            .invalidRequest, "Field '\(field)' has leading or trailing spaces",
            details: ["field": .string(field), "reason": "leading or trailing spaces"])
    }

    static func queryItems(_ fields: JSONFields, _ key: String) throws(LinkError) -> [QueryItem] {
        guard let value = fields[key], !value.isNull else { return [] }
        let field = fields.field(key)
        var items: [QueryItem] = []
        switch value {
        case .object(let object):
            for (name, value) in object {
                if case .array(let values) = value {
                    for (index, element) in values.enumerated() {
                        items.append(QueryItem(name, try text(element, field: "\(field).\(name)[\(index)]")))
                    }
                } else {
                    items.append(QueryItem(name, try text(value, field: field + "." + name)))
                }
            }
        case .array(let pairs):
            for (index, pair) in pairs.enumerated() {
                guard case .array(let parts) = pair, parts.count == 2, case .string(let name) = parts[0] else {
                    throw JSONFields.wrongType(
                        "\(field)[\(index)]", expected: "a [key, value] pair", got: pair, code: .invalidRequest)
                }
                items.append(QueryItem(name, try text(parts[1], field: "\(field)[\(index)]")))
            }
        default:
            throw fields.mismatch(key, "an object or an array of [key, value] pairs", value)
        }
        return items
    }

    /// A scalar as text: a string as is, a number or boolean as JavaScript's `String(value)` writes it (`42`, `1.5`,
    /// `100` for `1e2` or `100.0`, `true`), so one number is one text however it was written.
    static func text(_ value: JSONValue, field: String) throws(LinkError) -> String {
        switch value {
        case .string(let string): return string
        case .int, .double, .bool: return StringCoercion.string(from: value)
        default: throw JSONFields.wrongType(field, expected: "a string", got: value, code: .invalidRequest)
        }
    }
}
