extension Resolver {
    /// Resolves a canonical location, following redirect rules.
    ///
    /// Rules run root → leaf along the matched chain, each route's in order; the first whose `when` is truthy
    /// (or absent) decides. A redirect to the current location is a no-op and evaluation goes on with the next
    /// rule. After a redirect the new location is matched from scratch (`context` carries over, the old query
    /// does not). Errors: `no_match` (details `location`, and `chain` after a redirect), `intercepted`
    /// (`route`, `pattern`, `rule`, `location`), `rule_error` (`type`, `route`, `rule`), `redirect_loop`
    /// (`chain`, origin first, ending with the repeated location), `redirect_limit` (`chain` ending with the
    /// redirect that was refused, `limit`), `invalid_request` for a negative `redirectLimit`.
    ///
    /// With `evaluateRules: false` the location is only matched (FJRouter's `canOpen`): no `when` runs, no rule
    /// redirects or intercepts. `context` is built only when a `when` runs (most routes have none).
    /// `originMatch` is ``match(_:)`` of `origin` when the caller already has it (`.some(nil)`: none), so the
    /// origin is not matched twice.
    public func resolve(
        _ origin: Location, context: @autoclosure () -> JSONValue = .null, current: String? = nil,
        redirectLimit requested: Int? = nil, evaluateRules: Bool = true,
        originMatch: (index: Int, params: PathParameters)?? = nil
    ) throws(LinkError) -> Resolution {
        if let requested, requested < 0 {
            throw LinkError(
                .invalidRequest, "Field 'redirectLimit' must be a non-negative integer",
                details: ["field": "redirectLimit"])
        }
        let limit = min(redirectLimit, requested ?? redirectLimit)
        var location = origin
        // The canonical text of `location` and the chain (origin first) are only built once a rule needs them.
        var text: String?
        var chain: [String] = []
        // The locations of `chain`: a no-op and a loop are decided on these (`?x` and `?x=` are one location,
        // written as each came).
        var visited: [Location] = []
        var redirects: [Resolution.Redirect] = []

        var known = originMatch
        hops: while true {
            let matched = known ?? match(location)
            known = nil
            guard let (leafIndex, params) = matched else {
                throw noMatch(location, text ?? location.description, chain: redirects.isEmpty ? nil : chain)
            }
            let leaf = table.routes[leafIndex]
            var data: JSONValue?
            for routeIndex in leaf.chain where evaluateRules {
                let route = table.routes[routeIndex]
                for (ruleIndex, rule) in route.redirect.enumerated() {
                    let current = text ?? location.description
                    text = current
                    if chain.isEmpty {
                        chain = [current]
                        visited = [location]
                    }
                    if let condition = rule.when {
                        if data == nil { data = ruleData(location, current, params, context(), leaf) }
                        guard try evaluate(condition, data!, route, ruleIndex) else { continue }
                    }
                    guard case .redirect(let target) = rule.action else {
                        throw intercepted(route, ruleIndex, current)
                    }
                    let next = try self.location(of: target, params: params, current: current, chain: chain)
                    if next.isSamePlace(as: location) { continue }
                    let nextText = next.description
                    let seenBefore = visited.contains { next.isSamePlace(as: $0) }
                    chain.append(nextText)
                    visited.append(next)
                    if seenBefore {
                        throw LinkError(
                            .redirectLoop, "Redirects came back to \(nextText)",
                            details: ["chain": .array(chain.map(JSONValue.string))])
                    }
                    if redirects.count >= limit {
                        throw LinkError(
                            .redirectLimit, "More than \(limit) redirects",
                            details: ["chain": .array(chain.map(JSONValue.string)), "limit": .int(limit)])
                    }
                    redirects.append(.init(from: current, to: nextText, route: route.name, rule: ruleIndex))
                    location = next
                    text = nextText
                    continue hops
                }
            }
            var sameRoute: SameRoutePolicy?
            if let current, try currentRouteIndex(current) == leafIndex { sameRoute = leaf.sameRoute }
            return Resolution(
                location: location, routeIndex: leafIndex, route: leaf, params: params, routes: table.routes,
                redirects: redirects, sameRoute: sameRoute)
        }
    }

    /// The JSON Logic data of a `when`: `{location, path, params, query, context, route}`.
    private func ruleData(
        _ location: Location, _ text: String, _ params: PathParameters, _ context: JSONValue, _ leaf: Route
    ) -> JSONValue {
        [
            "location": .string(text),
            "path": .string(location.path),
            "params": params.json(),
            "query": .object(location.query.map.mapValues(JSONValue.string)),
            "context": context,
            "route": leaf.name.map(JSONValue.string) ?? .null,
        ]
    }

    private func evaluate(_ condition: Rule, _ data: JSONValue, _ route: Route, _ ruleIndex: Int) throws(LinkError)
        -> Bool
    {
        do {
            return try condition.evaluate(data).isTruthy
        } catch {
            throw LinkError(
                .ruleError, "Rule \(ruleIndex) of route \(route.pattern) failed: \(error.message)",
                details: [
                    "type": error.type, "route": route.name.map(JSONValue.string) ?? .null,
                    "pattern": .string(route.pattern.description), "rule": .int(ruleIndex),
                ])
        }
    }

    /// The location a redirect target gives; errors carry the chain so far.
    private func location(of target: RedirectTarget, params: PathParameters, current: String, chain: [String])
        throws(LinkError) -> Location
    {
        do throws(LinkError) {
            switch target {
            case .location(let template):
                return try Location(template.render(params: params, location: current))
            case .route(let name, let templates, let queryTemplates):
                var values = ParameterValues()
                for (key, template) in templates { values[key] = template.render(params: params, location: current) }
                let query = queryTemplates.map {
                    QueryItem($0.name, $0.value.render(params: params, location: current))
                }
                guard let route = table.route(named: name) else {
                    throw LinkError(
                        .unknownName, "A redirect leads to the unknown route name '\(name)'",
                        details: ["name": .string(name)])
                }
                return try LocationBuilder.location(for: route.pattern, params: values, query: query)
            }
        } catch {
            var details = error.details
            details["chain"] = .array(chain.map(JSONValue.string))
            throw LinkError(error.code, error.message, details: details)
        }
    }

    private func noMatch(_ location: Location, _ text: String, chain: [String]?) -> LinkError {
        var details: JSONObject = ["location": .string(text)]
        var message = "No route matches \(text)"
        if let host = location.host, let hosts, !hosts.allows(host) {
            details["host"] = .string(host)
            message = "The host \(host) is not one of the service's hosts"
        }
        if let chain { details["chain"] = .array(chain.map(JSONValue.string)) }
        return LinkError(.noMatch, message, details: details)
    }

    private func intercepted(_ route: Route, _ ruleIndex: Int, _ location: String) -> LinkError {
        LinkError(
            .intercepted, "Rule \(ruleIndex) of route \(route.name ?? route.pattern.description) blocked \(location)",
            details: [
                "route": route.name.map(JSONValue.string) ?? .null, "pattern": .string(route.pattern.description),
                "rule": .int(ruleIndex), "location": .string(location),
            ])
    }
}
