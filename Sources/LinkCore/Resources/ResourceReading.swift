import OrderedCollections

/// The answer to a read (`GET /v1/resources?loc=…` or `?name=…`): the value and where it came from.
public struct ResourceReading: Sendable, Hashable {
    /// The stored value, or the result of the resource's rule.
    public var value: JSONValue
    public var resource: Resource
    /// Path parameters of the match, in pattern order.
    public var params: PathParameters
    /// The query of the location, whose ``Query/map`` the answer carries; empty for a read by name.
    var locationQuery: Query

    /// The query of the location (last duplicate wins); empty for a read by name.
    public var query: OrderedDictionary<String, String> { locationQuery.map }

    public init(
        value: JSONValue, resource: Resource, params: PathParameters, query: OrderedDictionary<String, String>
    ) {
        self.init(
            value: value, resource: resource, params: params,
            query: Query(query.map { QueryItem($0.key, $0.value) }))
    }

    init(value: JSONValue, resource: Resource, params: PathParameters, query: Query) {
        self.value = value
        self.resource = resource
        self.params = params
        locationQuery = query
    }

    /// The answer as a value: read back from ``write(to:)``, the one rendering of a reading.
    public var json: JSONValue { JSONValue(writtenBy: write(to:)) }
}

extension ResourceReading {
    /// `{"value", "resource": {"path", "name", "revision"}, "params", "query"}`, written straight into `writer` (the
    /// read path is hot).
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("value")
        writer.value(value)
        writer.key("resource")
        writer.beginObject()
        writer.key("path")
        writer.string(resource.pattern.description)
        writer.key("name")
        writer.string(resource.name)
        writer.key("revision")
        writer.int(resource.revision)
        writer.endObject()
        writer.key("params")
        params.write(to: &writer)
        writer.key("query")
        locationQuery.writeMap(to: &writer)
        writer.endObject()
    }
}
