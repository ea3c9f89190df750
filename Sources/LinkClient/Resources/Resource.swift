/// What a resource holds: a JSON value, or a JSONLogic expression evaluated at read time over
/// `{"params", "query", "location"}` (API.md §4).
public enum ResourceContent: Sendable, Hashable {
    case value(JSONValue)
    case compute(JSONValue)
}

/// How to address a registered resource in a change: by its pattern (parameter names may differ) or its name.
public enum ResourceSelector: Sendable, Hashable {
    case path(String)
    case name(String)
}

/// What to do when creating a resource whose pattern exists already.
public enum OnExists: String, Sendable, Hashable {
    /// 409 `resource_exists` (the service's default).
    case fail
    /// Leave the existing content.
    case keep
    /// Replace it.
    case replace
}

/// A registered resource (API.md §4).
public struct Resource: Sendable, Hashable, Decodable {
    /// The registered pattern, e.g. `/flags/:platform`.
    public let path: String
    public let name: String?
    /// The global revision of its last write; send it back as `ifRevision` to change it safely.
    public let revision: Int
    public let content: ResourceContent

    enum CodingKeys: String, CodingKey { case path, name, revision, value, compute }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        revision = try container.decode(Int.self, forKey: .revision)
        if let compute = try container.decodeIfPresent(JSONValue.self, forKey: .compute) {
            content = .compute(compute)
        } else {
            content = .value(try container.decodeIfPresent(JSONValue.self, forKey: .value) ?? .null)
        }
    }
}

/// A resource read at a location or by name: its value (or the result of its `compute`), which resource it came
/// from, and the match's parameters.
public struct ResourceValue: Sendable, Hashable, Decodable {
    /// Which resource answered.
    public struct Source: Sendable, Hashable, Decodable {
        public let path: String
        public let name: String?
        public let revision: Int
    }

    /// The stored value, or the result of `compute`.
    public let value: JSONValue
    public let resource: Source
    public let params: [String: String]
    public let query: [String: String]

    enum CodingKeys: String, CodingKey { case value, resource, params, query }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decodeIfPresent(JSONValue.self, forKey: .value) ?? .null
        resource = try container.decode(Source.self, forKey: .resource)
        params = try container.decode([String: String].self, forKey: .params)
        query = try container.decode([String: String].self, forKey: .query)
    }
}
