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
        let body: Components.Schemas.EmitRequest = try JSONBridge.convert(request)
        return try await wire.call("emitEvent") { client in
            try JSONBridge.convert(try await client.emitEvent(body: .json(body)).ok.body.json)
        }
    }
}
