/// Reads the fields of a JSON object in a request or definition, naming each field by its path
/// (`routes[0].redirect[1].to`) in errors, and refusing fields it was not told about.
struct JSONFields {
    let object: JSONObject
    /// The path of the object itself; empty for a body's root.
    let path: String
    /// `invalid_request` for definitions and requests, `invalid_rule` inside redirect rules.
    let code: LinkError.Code

    init(_ value: JSONValue, path: String, code: LinkError.Code = .invalidRequest) throws(LinkError) {
        self.path = path
        self.code = code
        guard case .object(let object) = value else {
            throw JSONFields.wrongType(path.isEmpty ? "body" : path, expected: "an object", got: value, code: code)
        }
        self.object = object
    }

    /// The path of member `key`.
    func field(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// Member `key`; `nil` when absent (an explicit `null` is returned as `.null`).
    subscript(key: String) -> JSONValue? { object[key] }

    func string(_ key: String) throws(LinkError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .string(let string) = value else { throw mismatch(key, "a string", value) }
        return string
    }

    func requiredString(_ key: String) throws(LinkError) -> String {
        guard let string = try string(key) else {
            throw LinkError(code, "Field '\(field(key))' is required", details: ["field": .string(field(key))])
        }
        return string
    }

    func bool(_ key: String) throws(LinkError) -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .bool(let bool) = value else { throw mismatch(key, "a boolean", value) }
        return bool
    }

    func array(_ key: String) throws(LinkError) -> [JSONValue]? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .array(let array) = value else { throw mismatch(key, "an array", value) }
        return array
    }

    /// Throws for the first member whose key is not in `known`.
    func rejectUnknown(_ known: Set<String>) throws(LinkError) {
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw LinkError(
                code, "Unknown field '\(field(unknown))'",
                details: ["field": .string(field(unknown)), "reason": .string("unknown field")])
        }
    }

    /// A `wrong type` error for member `key`.
    func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> LinkError {
        JSONFields.wrongType(field(key), expected: expected, got: value, code: code)
    }

    static func wrongType(_ field: String, expected: String, got value: JSONValue, code: LinkError.Code) -> LinkError {
        LinkError(
            code, "Field '\(field)' must be \(expected), not \(value.typeName)",
            details: ["field": .string(field), "expected": .string(expected)])
    }
}
