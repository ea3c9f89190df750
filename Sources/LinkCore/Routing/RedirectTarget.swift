/// Where a redirect rule sends a resolution.
public enum RedirectTarget: Sendable {
    /// A location template (`"/login?from={location}"`).
    case location(LocationTemplate)
    /// A named route with templated parameter and query values
    /// (`{"name": "login", "params": {…}, "query": {…}}`).
    case route(name: String, params: [(name: String, value: LocationTemplate)], query: [QueryItemTemplate])

    /// A query item of a name-based target, its value a template.
    public struct QueryItemTemplate: Sendable {
        public let name: String
        public let value: LocationTemplate
    }

    /// Every template of the target.
    var templates: [LocationTemplate] {
        switch self {
        case .location(let template): return [template]
        case .route(_, let params, let query): return params.map(\.value) + query.map(\.value)
        }
    }

    /// The target with each template validated against the declaring route's pattern. `stored`: read back from the
    /// store, where an earlier version kept a template that gives what the location parser now refuses (an
    /// `https:x` URL, user info with a `\`): it is kept (the service must start), and a resolution that reaches it
    /// answers as for any location that does not parse.
    func validated(against pattern: Pattern, field: String, stored: Bool = false) throws(LinkError) -> RedirectTarget {
        switch self {
        case .location(let template):
            let checked = try template.validated(against: pattern, field: field)
            if stored { return .location(checked) }
            if checked.continuesAfterPathLocation {
                throw LinkError(
                    .invalidRule,
                    "Template '\(template)' in '\(field)': {location} in a path ends it (its own query would take what follows)",
                    details: [
                        "field": .string(field), "template": .string(template.description),
                        "reason": "text after {location} in a path",
                    ])
            }
            // A template must give a location whatever the values: try it with placeholder values.
            let sample = checked.render(
                params: PathParameters(
                    names: pattern.parameterNames, values: pattern.parameterNames.map { _ in "x" }),
                location: "/x")
            do {
                _ = try Location(sample)
            } catch {
                throw LinkError(
                    .invalidRule, "Template '\(template)' in '\(field)' does not give a location: \(error.message)",
                    details: ["field": .string(field), "template": .string(template.description)])
            }
            return .location(checked)
        case .route(let name, let params, let query):
            // No route can have a name outside `[A-Za-z0-9_.-]+` (§3): such a target could only ever answer
            // `unknown_name`. One stored by an earlier version still loads, and answers that.
            if !stored, !RouteDefinition.isValidName(name) {
                throw LinkError(
                    .invalidRule, "Invalid route name '\(name)' in '\(field).name': it must match [A-Za-z0-9_.-]+",
                    details: ["field": .string(field + ".name"), "name": .string(name)])
            }
            var checkedParams: [(name: String, value: LocationTemplate)] = []
            for param in params {
                checkedParams.append(
                    (param.name, try param.value.validated(against: pattern, field: field + ".params." + param.name)))
            }
            var checkedQuery: [QueryItemTemplate] = []
            for item in query {
                checkedQuery.append(
                    QueryItemTemplate(
                        name: item.name,
                        value: try item.value.validated(against: pattern, field: field + ".query." + item.name)))
            }
            return .route(name: name, params: checkedParams, query: checkedQuery)
        }
    }
}
