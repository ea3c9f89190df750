import OrderedCollections

/// The answer to a read (`GET /v1/resources?loc=…` or `?name=…`): the value and where it came from.
public struct ResourceReading: Sendable, Hashable {
    /// The stored value, or the result of the resource's rule.
    public var value: JSONValue
    public var resource: Resource
    /// Path parameters of the match, in pattern order.
    public var params: PathParameters
    /// The query of the location (last duplicate wins); empty for a read by name.
    public var query: OrderedDictionary<String, String>

    public init(
        value: JSONValue, resource: Resource, params: PathParameters, query: OrderedDictionary<String, String>
    ) {
        self.value = value
        self.resource = resource
        self.params = params
        self.query = query
    }

    /// `{"value", "resource": {"path", "name", "revision"}, "params", "query"}`.
    public var json: JSONValue {
        var queryObject = JSONObject(minimumCapacity: query.count)
        for (key, value) in query { queryObject[key] = .string(value) }
        return .object([
            "value": value, "resource": resource.summaryJSON, "params": params.json(), "query": .object(queryObject),
        ])
    }
}
