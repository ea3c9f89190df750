import LinkCore

/// `/v1/routes`, `/v1/resolve`, `/v1/locate` (API.md §3).
struct RouteEndpoints {
    let registry: LiveRoutes
    let metrics: ServiceMetrics

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
            Endpoint("GET", "/v1/routes", .read) { [registry] _, _ in
                .now(.json(registry.resolver.table.json()))
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
            Endpoint("POST", "/v1/resolve", .read) { [registry, metrics] request, _ in
                let resolveRequest = try ResolveRequest(json: request.jsonBody())
                return .now(
                    try RouteEndpoints.resolve(metrics) { () throws(LinkError) in
                        try registry.withResolver { (resolver) throws(LinkError) in
                            try resolver.resolve(resolveRequest)
                        }
                    })
            },
            Endpoint("GET", "/v1/resolve", .read) { [registry, metrics] request, _ in
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
                return .now(
                    try RouteEndpoints.resolve(metrics) { () throws(LinkError) in
                        try registry.withResolver { (resolver) throws(LinkError) in
                            try resolver.resolve(
                                location: url, current: current, evaluateRules: evaluate, hashMode: hashMode)
                        }
                    })
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

    /// Runs a resolution, counting its outcome (`resolved`, `redirected`, or the error code).
    static func resolve(_ metrics: ServiceMetrics, _ body: () throws(LinkError) -> Resolution) throws(LinkError)
        -> Response
    {
        do {
            let resolution = try body()
            metrics.recordOutcome(resolution.redirects.isEmpty ? "resolved" : "redirected")
            var writer = JSONWriter(capacity: 768)
            resolution.write(to: &writer)
            return .json(writer)
        } catch {
            metrics.recordOutcome(error.code.rawValue)
            throw error
        }
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
