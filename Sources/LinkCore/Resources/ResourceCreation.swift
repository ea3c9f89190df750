/// A create request (`POST /v1/resources`): `{"path", "name"?, "value" | "compute", "onExists"?}`.
public struct ResourceCreation: Sendable, Hashable {
    private static let fieldNames: Set<String> = ["path", "name", "value", "compute", "onExists"]

    /// What to do when a resource with the same pattern (parameter names ignored) exists.
    public enum ExistingPolicy: String, Sendable, Hashable, CaseIterable {
        /// 409 `resource_exists` (the default).
        case fail
        /// Keep the existing value; take the new name if one is given.
        case keep
        /// Take the new pattern text, value or rule; take the new name if one is given.
        case replace
    }

    public var pattern: Pattern
    public var name: String?
    public var content: ResourceContent
    public var onExists: ExistingPolicy

    public init(pattern: Pattern, name: String? = nil, content: ResourceContent, onExists: ExistingPolicy = .fail) {
        self.pattern = pattern
        self.name = name
        self.content = content
        self.onExists = onExists
    }

    /// Decodes a create body. Unknown fields, a missing `path`, a field of the wrong type (`null` included, except
    /// as a `value` or a rule), an invalid name or `onExists`, and anything but exactly one of `value` and
    /// `compute` are `invalid_request` (details `field`); a malformed `path` is `invalid_pattern`, a malformed
    /// `compute` `invalid_rule`.
    public init(json: JSONValue) throws(LinkError) {
        let fields = try JSONFields(json, path: "", nullMeansAbsent: true)
        try fields.rejectUnknown(ResourceCreation.fieldNames)
        let path = try fields.strictString("path")
        guard let path else {
            throw LinkError(.invalidRequest, "Field 'path' is required", details: ["field": "path"])
        }
        let name = try fields.strictString("name")
        if let name { try Resource.checkName(name, field: "name") }
        let content = try fields.resourceContent()
        onExists = .fail
        if let policy = try fields.strictString("onExists") {
            guard let parsed = ExistingPolicy(rawValue: policy) else {
                throw LinkError(
                    .invalidRequest, "Field 'onExists' must be \"fail\", \"keep\" or \"replace\"",
                    details: ["field": "onExists"])
            }
            onExists = parsed
        }
        self.pattern = try Pattern(path)
        self.name = name
        self.content = content
    }
}

extension JSONFields {
    /// Member `key` as a string; `nil` when absent; `invalid_request` for any other type, `null` included.
    func strictString(_ key: String) throws(LinkError) -> String? {
        guard let value = self[key] else { return nil }
        guard case .string(let string) = value else { throw mismatch(key, "a string", value) }
        return string
    }

    /// Exactly one of `value` (any JSON) and `compute` (a rule, compiled here).
    func resourceContent() throws(LinkError) -> ResourceContent {
        switch (self["value"], self["compute"]) {
        case (let value?, nil):
            return .value(value)
        case (nil, let expression?):
            return try .compute(expression: expression)
        case (.some, .some):
            throw LinkError(
                .invalidRequest, "Give either 'value' or 'compute', not both", details: ["field": "compute"])
        case (nil, nil):
            throw LinkError(.invalidRequest, "Field 'value' or 'compute' is required", details: ["field": "value"])
        }
    }
}
