import LinkCore

/// Reads the fields of a JSON object body, with `invalid_request` for missing, mistyped or unknown fields.
struct FieldReader {
    let object: JSONObject

    /// `allowed`: the fields the body may have; any other is an error.
    init(_ value: JSONValue, allowed: Set<String>, what: String = "request body") throws(LinkError) {
        guard case .object(let object) = value else {
            throw LinkError(.invalidRequest, "The \(what) must be a JSON object")
        }
        if let unknown = object.keys.first(where: { !allowed.contains($0) }) {
            throw LinkError(
                .invalidRequest, "Unknown field '\(unknown)' in the \(what)",
                details: ["field": .string(unknown), "allowed": .array(allowed.sorted().map(JSONValue.string))])
        }
        self.object = object
    }

    func has(_ key: String) -> Bool { object[key] != nil }

    func value(_ key: String) -> JSONValue? { object[key] }

    func string(_ key: String) throws(LinkError) -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let s) = value else { throw LinkError.invalidField(key, expected: "a string") }
        return s
    }

    func requiredString(_ key: String) throws(LinkError) -> String {
        guard let s = try string(key) else {
            throw LinkError(.invalidRequest, "Field '\(key)' is required", details: ["field": .string(key)])
        }
        return s
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws(LinkError) -> Int? {
        guard let value = object[key] else { return nil }
        guard let i = value.intValue, range.contains(i) else {
            throw LinkError.invalidField(key, expected: "an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return i
    }

    /// An object of string values (path parameters, query items); numbers and booleans are accepted as their text.
    func stringMap(_ key: String) throws(LinkError) -> [(String, String)] {
        guard let value = object[key], !value.isNull else { return [] }
        guard case .object(let members) = value else {
            throw LinkError.invalidField(key, expected: "an object of strings")
        }
        var pairs: [(String, String)] = []
        for (name, member) in members {
            switch member {
            case .string(let s): pairs.append((name, s))
            case .int, .double, .bool: pairs.append((name, member.encodedString()))
            default: throw LinkError.invalidField(key + "." + name, expected: "a string")
            }
        }
        return pairs
    }
}
