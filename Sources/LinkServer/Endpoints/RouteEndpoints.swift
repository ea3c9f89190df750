import LinkCore

/// `/v1/routes`, `/v1/resolve`, `/v1/locate` (API.md §3).
struct RouteEndpoints {
    let registry: LiveRoutes
    let metrics: ServiceMetrics
    /// The answers kept for requests already resolved.
    let answers = KeptResponses()
    /// The list of routes, kept per table.
    let list = KeptList()

    var endpoints: [Endpoint] {
        [
            Endpoint("POST", "/v1/routes", .write) { [registry] request, _ in
                let definition = try RouteDefinition(json: request.jsonBody())
                let registered = try registry.write { (table) throws(LinkError) in
                    try table.registering(definition, source: .api)
                }
                return .now(.json(["registered": .array(registered.map { $0.json() })], status: 201))
            },
            Endpoint("PUT", "/v1/routes", .write) { [registry] request, _ in
                let body = try JSONFields(request.jsonBody(), allowed: ["routes"])
                guard case .array(let trees)? = body["routes"] else {
                    throw LinkError.invalidField("routes", expected: "an array of route definitions")
                }
                var definitions: [RouteDefinition] = []
                for (index, tree) in trees.enumerated() {
                    definitions.append(try RouteDefinition(json: tree, field: "routes[\(index)]"))
                }
                let registered = try registry.write { (table) throws(LinkError) in
                    try table.replacingRoutes(from: .api, with: definitions)
                }
                return .now(.json(["registered": .array(registered.map { $0.json() })]))
            },
            Endpoint("GET", "/v1/routes", .read) { [registry, list] _, _ in
                // As large as the table (100k routes: megabytes): written once per table (``KeptList``).
                let snapshot = registry.published
                return .now(list.response(serial: snapshot.serial) { snapshot.lend { .json($0.table.json()) } })
            },
            Endpoint("DELETE", "/v1/routes", .write) { [registry] request, _ in
                guard let pattern = try request.queryValue("pattern") else {
                    throw LinkError(
                        .invalidRequest, "Give the route to delete as ?pattern=… or /v1/routes/{name}",
                        details: ["field": "pattern"])
                }
                _ = try registry.write { (table) throws(LinkError) in try table.removing(pattern: pattern) }
                return .now(.noContent)
            },
            Endpoint("GET", "/v1/routes/{name}", .read) { [registry] _, parameters in
                let name = parameters["name"] ?? ""
                let table = registry.resolver.table
                guard let index = table.index(named: name) else { throw RouteEndpoints.unknownName(name) }
                return .now(.json(table.json(ofRouteAt: index)))
            },
            Endpoint("DELETE", "/v1/routes/{name}", .write) { [registry] _, parameters in
                let name = parameters["name"] ?? ""
                _ = try registry.write { (table) throws(LinkError) in try table.removing(named: name) }
                return .now(.noContent)
            },
            Endpoint("POST", "/v1/resolve", .read) { [registry, metrics, answers] request, _ in
                .now(RouteEndpoints.resolvePosted(request, registry, metrics, answers))
            },
            Endpoint("GET", "/v1/resolve", .read) { [registry, metrics, answers] request, _ in
                .now(RouteEndpoints.resolveQueried(request, registry, metrics, answers))
            },
            Endpoint("POST", "/v1/locate", .read) { [registry] request, _ in
                let named = try NamedLocation(json: request.jsonBody())
                let location = try registry.resolver.locate(named)
                return .now(.json(["location": .string(location.description)]))
            },
        ]
    }

    static func unknownName(_ name: String) -> LinkError {
        LinkError(.unknownName, "No route is named '\(name)'", details: ["name": .string(name)])
    }

    /// `POST /v1/resolve`: the body's resolution, kept by the body's bytes.
    static func resolvePosted(
        _ request: Request, _ registry: LiveRoutes, _ metrics: ServiceMetrics, _ answers: KeptResponses
    ) -> Response {
        let found = request.body.withUnsafeBytes { body in
            answered(
                .body, body, registry, answers,
                parse: { () throws(LinkError) -> ResolveRequest in try ResolveRequest(json: request.jsonBody()) },
                resolve: { (resolver, resolveRequest) throws(LinkError) -> Resolution in
                    try resolver.resolve(resolveRequest)
                })
        }
        return respond(found, metrics)
    }

    /// `GET /v1/resolve?url=…`: the query's resolution, kept by the query's bytes.
    static func resolveQueried(
        _ request: Request, _ registry: LiveRoutes, _ metrics: ServiceMetrics, _ answers: KeptResponses
    ) -> Response {
        func lookUp(_ query: UnsafeRawBufferPointer) -> (value: KeptResponse, kept: Bool) {
            answered(
                .query, query, registry, answers,
                parse: { () throws(LinkError) in try resolveQuery(request) },
                resolve: { (resolver, query) throws(LinkError) -> Resolution in
                    try resolver.resolve(
                        location: query.url, current: query.current, evaluateRules: query.evaluate,
                        hashMode: query.hashMode)
                })
        }
        return respond(KeptKey.withBytes(of: request.rawQuery, lookUp), metrics)
    }

    /// The parameters of `GET /v1/resolve`: `url` (required), `current`, `evaluate`, `hashMode`.
    static func resolveQuery(_ request: Request) throws(LinkError) -> (
        url: String, current: String?, evaluate: Bool, hashMode: Bool
    ) {
        var url: String?
        var current: String?
        var evaluate = true
        var hashMode = false
        for item in try request.query() {
            switch item.name {
            case "url": url = item.value
            case "current": current = item.value
            case "evaluate": evaluate = try RouteEndpoints.flag(item.value, "evaluate")
            case "hashMode": hashMode = try RouteEndpoints.flag(item.value, "hashMode")
            default: continue
            }
        }
        guard let url else {
            throw LinkError(.invalidRequest, "Query parameter 'url' is required", details: ["field": "url"])
        }
        return (url, current, evaluate, hashMode)
    }

    /// The answer kept for a request's bytes (`key`), or that of parsing the request and resolving it, then kept;
    /// `kept` says which.
    static func answered<Input>(
        _ kind: KeptKey.Kind, _ key: UnsafeRawBufferPointer, _ registry: LiveRoutes,
        _ answers: KeptResponses, parse: () throws(LinkError) -> Input,
        resolve: (borrowing Resolver, Input) throws(LinkError) -> Resolution
    ) -> (value: KeptResponse, kept: Bool) {
        let snapshot = registry.published
        return answers.answer(kind, key: key, serial: snapshot.serial) { () -> (Response, String?) in
            let input: Input
            do throws(LinkError) { input = try parse() } catch { return (ErrorEnvelope.response(for: error), nil) }
            return snapshot.lend { (resolver) -> (Response, String?) in
                do throws(LinkError) {
                    let resolution = try resolve(resolver, input)
                    var writer = JSONWriter(capacity: 768)
                    resolution.write(to: &writer)
                    return (.json(writer), resolution.redirects.isEmpty ? "resolved" : "redirected")
                } catch {
                    return (ErrorEnvelope.response(for: error), error.code.rawValue)
                }
            }
        }
    }

    /// A resolution's answer, or its error's envelope; counts its outcome (`resolved`, `redirected`, or the error
    /// code that ended it; a request refused before it was resolved is not an outcome).
    static func respond(
        _ answer: (value: KeptResponse, kept: Bool), _ metrics: ServiceMetrics
    ) -> Response {
        metrics.recordResolveAnswer(kept: answer.kept)
        if let outcome = answer.value.outcome { metrics.recordOutcome(outcome) }
        return answer.value.response
    }

    /// A boolean query parameter: `true` or `false`.
    static func flag(_ value: String, _ name: String) throws(LinkError) -> Bool {
        switch value {
        case "true": return true
        case "false": return false
        default: throw LinkError.invalidField(name, expected: "true or false")
        }
    }
}
