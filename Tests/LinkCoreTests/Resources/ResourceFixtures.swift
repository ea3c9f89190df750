import LinkCore

/// Builds registries and requests from JSON text, as clients send them.
enum ResourceFixtures {
    static func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    /// A registry after creating each body of `[body, body, …]` in turn.
    static func registry(_ bodies: String) throws -> ResourceRegistry {
        var registry = ResourceRegistry()
        for body in try json(bodies).arrayValue ?? [] {
            registry = try registry.creating(ResourceCreation(json: body)).registry
        }
        return registry
    }

    /// `registry` after creating `body`, and the change.
    static func create(_ registry: ResourceRegistry, _ body: String) throws -> ResourceRegistry.Outcome {
        try registry.creating(ResourceCreation(json: json(body)))
    }

    /// `registry` after the `PATCH` body `body`.
    static func update(_ registry: ResourceRegistry, _ body: String, conditions: [RevisionCondition] = []) throws
        -> ResourceRegistry.Outcome
    {
        try registry.updating(ResourceUpdate(json: json(body)), conditions: conditions)
    }

    /// The value read at `location`.
    static func value(_ registry: ResourceRegistry, at location: String) throws -> JSONValue {
        try registry.read(at: Location(location)).value
    }

    /// `[path, name, revision]` of every resource, in order, for compact expectations.
    static func summary(_ registry: ResourceRegistry) -> [String] {
        registry.resources.map { "\($0.pattern) \($0.name ?? "-") \($0.revision)" }
    }
}
