import OpenAPIRuntime

extension LinkClient {
    /// The value at a concrete location, e.g. `/flags/ios`.
    public func resource(at location: String) async throws -> ResourceValue {
        try await wire.call("getResources") { client in
            try JSONBridge.convert(try await client.getResources(query: .init(loc: location)).ok.body.json)
        }
    }

    /// The value of a named resource, its pattern filled with `params`.
    public func resource(named name: String, params: [String: String] = [:]) async throws -> ResourceValue {
        let query = Operations.GetResources.Input.Query(
            name: name, params: params.isEmpty ? nil : .init(additionalProperties: params))
        return try await wire.call("getResources") { client in
            try JSONBridge.convert(try await client.getResources(query: query).ok.body.json)
        }
    }

    /// Every registered resource.
    public func resources() async throws -> [Resource] {
        try await wire.call("getResources") { client in
            let list = try JSONBridge.convert(try await client.getResources().ok.body.json, to: JSONValue.self)
            return try (list["resources"] ?? []).decode([Resource].self)
        }
    }

    /// Registers a resource (a write). `onExists` decides what happens when the pattern exists already; with
    /// `ifRevision`, a `keep` or `replace` applies only if that resource is still at that revision (sent as
    /// `If-Match`; with no resource there, nothing matches), otherwise 412 `revision_mismatch`.
    @discardableResult
    public func createResource(
        path: String, name: String? = nil, _ content: ResourceContent, onExists: OnExists = .fail,
        ifRevision: Int? = nil
    ) async throws -> Resource {
        var fields: [String: JSONValue] = ["path": .string(path), "onExists": .string(onExists.rawValue)]
        if let name { fields["name"] = .string(name) }
        fields.merge(content.fields) { _, new in new }
        var body: Components.Schemas.ResourceCreate = try JSONBridge.request(
            JSONValue.object(fields), for: "createResource")
        // `null` is a value (API.md §4): sent as `"value": null`, which the generated type would leave out.
        if case .value(.null) = content { body.value = .some(OpenAPIValueContainer(nilLiteral: ())) }
        let headers = Operations.CreateResource.Input.Headers(ifMatch: ifRevision.map { "\"\($0)\"" })
        return try await wire.call("createResource") { [body] client in
            switch try await client.createResource(headers: headers, body: .json(body)) {
            case .created(let created): return try JSONBridge.convert(try created.body.json)
            case let other: return try JSONBridge.convert(try other.ok.body.json)
            }
        }
    }

    /// Changes a resource's content (a write). With `ifRevision`, the change applies only if the resource is still
    /// at that revision (sent as `If-Match`); otherwise 412 `revision_mismatch`.
    @discardableResult
    public func updateResource(_ selector: ResourceSelector, to content: ResourceContent, ifRevision: Int? = nil)
        async throws -> Resource
    {
        var fields = content.fields
        fields.merge(selector.fields) { _, new in new }
        var body: Components.Schemas.ResourceUpdate = try JSONBridge.request(
            JSONValue.object(fields), for: "updateResource")
        // `null` is a value (API.md §4): sent as `"value": null`, which the generated type would leave out.
        if case .value(.null) = content { body.value = .some(OpenAPIValueContainer(nilLiteral: ())) }
        let headers = Operations.UpdateResource.Input.Headers(ifMatch: ifRevision.map { "\"\($0)\"" })
        return try await wire.call("updateResource") { [body] client in
            try JSONBridge.convert(try await client.updateResource(headers: headers, body: .json(body)).ok.body.json)
        }
    }

    /// Removes a resource (a write); with `ifRevision`, only if it is still at that revision.
    public func deleteResource(_ selector: ResourceSelector, ifRevision: Int? = nil) async throws {
        let query: Operations.DeleteResource.Input.Query
        switch selector {
        case .path(let path): query = .init(path: path)
        case .name(let name): query = .init(name: name)
        }
        let headers = Operations.DeleteResource.Input.Headers(ifMatch: ifRevision.map { "\"\($0)\"" })
        _ = try await wire.call("deleteResource") { client in
            try await client.deleteResource(query: query, headers: headers).noContent
        }
    }
}

extension ResourceContent {
    fileprivate var fields: [String: JSONValue] {
        switch self {
        case .value(let value): ["value": value]
        case .compute(let rule): ["compute": rule]
        }
    }
}

extension ResourceSelector {
    fileprivate var fields: [String: JSONValue] {
        switch self {
        case .path(let path): ["path": .string(path)]
        case .name(let name): ["name": .string(name)]
        }
    }
}
