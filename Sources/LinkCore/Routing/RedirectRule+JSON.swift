extension RedirectRule {
    private static let fieldNames: Set<String> = ["when", "to", "action"]

    /// Decodes `{"when"?, "to"}` or `{"when"?, "action": "intercept"}`; anything else, an unknown field, a bad
    /// template or a bad JSON Logic expression is `invalid_rule` (details `field`).
    public init(json: JSONValue, field: String) throws(LinkError) {
        let fields = try JSONFields(json, path: field, code: .invalidRule, nullMeansAbsent: true)
        try fields.rejectUnknown(RedirectRule.fieldNames)
        var condition: Rule?
        if let expression = fields["when"] {
            do {
                condition = try Rule(expression)
            } catch {
                var details = error.details
                details["field"] = .string(fields.field("when"))
                throw LinkError(
                    .invalidRule, "Invalid rule in '\(fields.field("when"))': \(error.message)", details: details)
            }
        }
        let action: Action
        switch (fields["to"], try fields.string("action")) {
        case (nil, "intercept"?): action = .intercept
        case (nil, let other?):
            throw LinkError(
                .invalidRule, "Unknown action '\(other)' in '\(fields.field("action"))': expected \"intercept\"",
                details: ["field": .string(fields.field("action"))])
        case (let to?, nil): action = .redirect(try RedirectRule.target(to, field: fields.field("to")))
        case (_?, _?):
            throw LinkError(
                .invalidRule, "A rule has either 'to' or 'action', not both", details: ["field": .string(field)])
        case (nil, nil):
            throw LinkError(
                .invalidRule, "A rule needs 'to' or \"action\": \"intercept\"", details: ["field": .string(field)])
        }
        self.init(when: condition, action: action, json: json)
    }

    private static func target(_ value: JSONValue, field: String) throws(LinkError) -> RedirectTarget {
        if case .string(let text) = value {
            return .location(try LocationTemplate(text, isLocation: true, field: field))
        }
        let fields = try JSONFields(value, path: field, code: .invalidRule, nullMeansAbsent: true)
        try fields.rejectUnknown(NamedLocation.fieldNames)
        let name = try fields.requiredString("name")
        var params: [(name: String, value: LocationTemplate)] = []
        for (key, value) in try templateObject(fields, "params") {
            params.append((key, try template(value, field: fields.field("params") + "." + key)))
        }
        var query: [RedirectTarget.QueryItemTemplate] = []
        for (key, value) in try templateObject(fields, "query") {
            query.append(.init(name: key, value: try template(value, field: fields.field("query") + "." + key)))
        }
        return .route(name: name, params: params, query: query)
    }

    private static func templateObject(_ fields: JSONFields, _ key: String) throws(LinkError) -> JSONObject {
        guard let value = fields[key], !value.isNull else { return [:] }
        guard case .object(let object) = value else { throw fields.mismatch(key, "an object", value) }
        return object
    }

    /// A value template: a string, or a number or boolean taken as its text (as JavaScript's `String(value)`).
    private static func template(_ value: JSONValue, field: String) throws(LinkError) -> LocationTemplate {
        switch value {
        case .string(let text): return try LocationTemplate(text, isLocation: false, field: field)
        case .int, .double, .bool:
            return try LocationTemplate(StringCoercion.string(from: value), isLocation: false, field: field)
        default: throw JSONFields.wrongType(field, expected: "a string", got: value, code: .invalidRule)
        }
    }
}
