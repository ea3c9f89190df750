extension LinkClient {
    /// Emits an event at a location, e.g. `/seek/30` (a write: needs the admin token when one is set).
    @discardableResult
    public func emit(location: String, extra: JSONValue? = nil) async throws -> EmitResult {
        var fields: [String: JSONValue] = ["loc": .string(location)]
        if let extra { fields["extra"] = extra }
        return try await emit(JSONValue.object(fields))
    }

    /// Emits an event to a named type, its location built from `params` and `query`.
    @discardableResult
    public func emit(
        name: String, params: [String: String] = [:], query: [String: String] = [:], extra: JSONValue? = nil
    ) async throws -> EmitResult {
        var fields: [String: JSONValue] = [
            "name": .string(name), "params": .object(params.mapValues { .string($0) }),
            "query": .object(query.mapValues { .string($0) }),
        ]
        if let extra { fields["extra"] = extra }
        return try await emit(JSONValue.object(fields))
    }

    private func emit(_ request: JSONValue) async throws -> EmitResult {
        let body: Components.Schemas.EmitRequest = try JSONBridge.request(request, for: "emitEvent")
        return try await wire.call("emitEvent") { client in
            try JSONBridge.convert(try await client.emitEvent(body: .json(body)).ok.body.json)
        }
    }
}

extension LinkClient {
    /// Registers an event type by pattern, and binds `name` to it (a write: the admin token when one is set), so
    /// that emits to it are accepted before anyone subscribes (an emit that no type matches is 404 `no_match`).
    /// Answers `true` when it registered or named the type, `false` when it existed as given.
    @discardableResult
    public func registerEventType(path: String, name: String? = nil) async throws -> Bool {
        let body = Components.Schemas.EventTypeCreate(path: path, name: name)
        return try await wire.call("registerEventType") { client in
            switch try await client.registerEventType(body: .json(body)) {
            case .created: return true
            case let other:
                _ = try other.ok
                return false
            }
        }
    }
}
