import OrderedCollections

extension ResourceRegistry {
    /// The value at a concrete location (`GET /v1/resources?loc=…`): one trie lookup, then the stored value or
    /// the rule evaluated over `{"params", "query", "location"}`.
    ///
    /// - Parameter hosts: when given, an `http`/`https` location with another host matches nothing.
    /// - Throws: `no_match` (details `location`) when no pattern matches; `rule_error` when the rule fails.
    public func read(at location: Location, hosts: HostAllowList? = nil) throws(LinkError) -> ResourceReading {
        guard hosts?.allows(location) ?? true, let index = storage.trie.firstIndex(matching: location.segments)
        else {
            let text = location.description
            throw LinkError(.noMatch, "No resource matches \(text)", details: ["location": .string(text)])
        }
        let resource = storage.resources[index]
        return try reading(resource, at: location)
    }

    /// The value of the resource named `name` with path parameters `params` (`GET /v1/resources?name=…`):
    /// the location is built from its pattern, and the query is empty.
    ///
    /// - Throws: `unknown_name`; `missing_params` (every missing name, in pattern order) or `unexpected_params`;
    ///   `invalid_url` for a parameter holding a control character; `rule_error` when the rule fails.
    public func read(named name: String, params: ParameterValues) throws(LinkError) -> ResourceReading {
        guard let resource = resource(named: name) else { throw ResourceRegistry.unknownName(name) }
        let location = try LocationBuilder.location(for: resource.pattern, params: params)
        return try reading(resource, at: location)
    }

    private func reading(_ resource: Resource, at location: Location) throws(LinkError) -> ResourceReading {
        let params = resource.pattern.parameters(in: location.segments)
        let value = try resource.content.value(
            for: .object([
                "params": params.json(), "query": .object(location.query.map.mapValues(JSONValue.string)),
                "location": .string(location.description),
            ]))
        return ResourceReading(value: value, resource: resource, params: params, query: location.query)
    }

    static func unknownName(_ name: String) -> LinkError {
        LinkError(.unknownName, "No resource is named '\(name)'", details: ["name": .string(name)])
    }
}
