import LinkCore

/// `/v1/resources` (API.md §4): read by location or name, list, create, change, delete.
///
/// Reads use the current snapshot only (no store access); writes go through ``LiveResources/write(_:)``. Every
/// answer about one resource carries `ETag: "<revision>"`; the list carries the global revision.
struct ResourceEndpoints {
    let state: LiveResources
    /// The answers kept for reads already answered.
    let answers = KeptResponses()
    /// The list, kept per snapshot whatever the query holds besides.
    let list = KeptList()

    var endpoints: [Endpoint] {
        [
            Endpoint("GET", "/v1/resources", .read) { [state, answers, list] request, _ in
                .now(ResourceEndpoints.read(request, state, answers, list))
            },
            Endpoint("POST", "/v1/resources", .write) { [state] request, _ in
                let creation = try ResourceCreation(json: request.jsonBody())
                // `If-Match` is honoured by every write (RFC 9110 §13.1.1), against the resource of the same pattern.
                let conditions = ResourcePreconditions.conditions(ifMatch: request.headers[.ifMatch])
                let change = try state.write { try $0.creating(creation, conditions: conditions) }
                let status = if case .created = change { 201 } else { 200 }
                return .now(ResourceEndpoints.resourceResponse(change.resource, status: status))
            },
            Endpoint("PATCH", "/v1/resources", .write) { [state] request, _ in
                let update = try ResourceUpdate(json: request.jsonBody())
                let conditions = ResourcePreconditions.conditions(ifMatch: request.headers[.ifMatch])
                let change = try state.write { try $0.updating(update, conditions: conditions) }
                return .now(ResourceEndpoints.resourceResponse(change.resource, status: 200))
            },
            Endpoint("DELETE", "/v1/resources", .write) { [state] request, _ in
                let items = try request.queryItems()
                let target = try ResourceTarget.parse(
                    path: items.last { $0.0 == "path" }?.1, name: items.last { $0.0 == "name" }?.1)
                let conditions = ResourcePreconditions.conditions(ifMatch: request.headers[.ifMatch])
                _ = try state.write { try $0.deleting(target, conditions: conditions) }
                return .now(.noContent)
            },
        ]
    }

    /// A read, from the answers kept for its query when it was answered before from the same snapshot. The list is
    /// kept apart, once (``KeptList``): any query without `loc` or `name` asks for it, and a query that differs only
    /// in what the list ignores (a cache-buster) must not write it again.
    private static func read(
        _ request: Request, _ state: LiveResources, _ answers: KeptResponses, _ list: KeptList
    ) -> Response {
        let snapshot = state.published
        func lookUp(_ query: UnsafeRawBufferPointer) -> Response {
            answers.answer(.query, key: query, serial: snapshot.serial) { () -> (value: KeptResponse, size: Int?) in
                let response: Response
                do throws(LinkError) {
                    guard let read = try read(request, snapshot.value, hosts: state.hosts) else {
                        let listed = list.response(serial: snapshot.serial) {
                            .json(
                                snapshot.value.listJSON,
                                headers: [("ETag", ResourcePreconditions.entityTag(snapshot.value.revision))])
                        }
                        return (KeptResponse(response: listed, outcome: nil), nil)
                    }
                    response = read
                } catch {
                    response = ErrorEnvelope.response(for: error)
                }
                return (KeptResponse(response: response, outcome: nil), response.keptSize)
            }.value.response
        }
        // A 304 when the client holds the answer's tag already: decided here, not kept with the answer, which serves
        // every client of the same query. A read of the same URL at the same revision is the same answer, computed
        // values included (they depend only on the URL).
        return KeptKey.withBytes(of: request.rawQuery, lookUp).unlessHeld(request.headers[.ifNoneMatch])
    }

    /// `?loc=` → the value at a location; `?name=` (other keys are parameters) → the value by name; neither →
    /// `nil`, the list.
    private static func read(_ request: Request, _ registry: ResourceRegistry, hosts: HostAllowList?)
        throws(LinkError) -> Response?
    {
        var loc: String?
        var name: String?
        var params = ParameterValues()
        for item in try request.query() {
            switch item.name {
            case "loc": loc = item.value
            case "name": name = item.value
            default: params[item.name] = item.value
            }
        }
        let reading: ResourceReading
        switch (loc, name) {
        case (let loc?, nil):
            reading = try registry.read(at: Location(loc), hosts: hosts)
        case (nil, let name?):
            try Resource.checkName(name)
            reading = try registry.read(named: name, params: params)
        case (nil, nil):
            return nil
        case (.some, .some):
            throw LinkError(.invalidRequest, "Give either 'loc' or 'name', not both", details: ["field": "name"])
        }
        return .json(
            writing: { reading.write(to: &$0) },
            headers: [("ETag", ResourcePreconditions.entityTag(reading.resource.revision))])
    }

    private static func resourceResponse(_ resource: Resource, status: Int) -> Response {
        .json(resource.json, status: status, headers: [("ETag", ResourcePreconditions.entityTag(resource.revision))])
    }
}
