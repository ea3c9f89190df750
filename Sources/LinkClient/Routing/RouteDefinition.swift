/// A route to register (API.md §3): a pattern, an optional name, what the app shows, redirect rules and children.
///
/// ```swift
/// RouteDefinition(path: "/users/:id", name: "user", destination: ["screen": "UserProfile"], presentation: "push",
///                 routes: [RouteDefinition(path: "posts/:postId", name: "userPost")])
/// ```
public struct RouteDefinition: Sendable, Hashable, Encodable {
    public var path: String
    public var name: String?
    public var destination: JSONValue?
    public var presentation: String?
    /// `none`, `update` or `new` (the service's default).
    public var sameRoute: String?
    public var caseInsensitive: Bool?
    public var redirect: [RedirectRule]?
    /// The hosted-link settings (API.md §7), as JSON.
    public var link: JSONValue?
    /// Children, with paths relative to this route.
    public var routes: [RouteDefinition]?

    public init(
        path: String, name: String? = nil, destination: JSONValue? = nil, presentation: String? = nil,
        sameRoute: String? = nil, caseInsensitive: Bool? = nil, redirect: [RedirectRule]? = nil,
        link: JSONValue? = nil, routes: [RouteDefinition]? = nil
    ) {
        self.path = path
        self.name = name
        self.destination = destination
        self.presentation = presentation
        self.sameRoute = sameRoute
        self.caseInsensitive = caseInsensitive
        self.redirect = redirect
        self.link = link
        self.routes = routes
    }
}

/// One redirect rule of a route: when `when` (JSONLogic; absent = always) holds, send the resolution elsewhere or
/// stop it with 403 `intercepted`.
public struct RedirectRule: Sendable, Hashable, Encodable {
    let json: JSONValue

    /// Redirects to a location template: `{param}` and `{location}` are filled in, e.g. `/login?from={location}`.
    public static func to(_ template: String, when condition: JSONValue? = nil) -> RedirectRule {
        RedirectRule(json: rule(["to": .string(template)], when: condition))
    }

    /// Redirects to a named route, with parameter and query templates.
    public static func to(
        name: String, params: [String: String] = [:], query: [String: String] = [:], when condition: JSONValue? = nil
    ) -> RedirectRule {
        let target: JSONValue = [
            "name": .string(name), "params": .object(params.mapValues { .string($0) }),
            "query": .object(query.mapValues { .string($0) }),
        ]
        return RedirectRule(json: rule(["to": target], when: condition))
    }

    /// Stops the resolution with 403 `intercepted`.
    public static func intercept(when condition: JSONValue? = nil) -> RedirectRule {
        RedirectRule(json: rule(["action": "intercept"], when: condition))
    }

    private static func rule(_ fields: [String: JSONValue], when condition: JSONValue?) -> JSONValue {
        var fields = fields
        if let condition { fields["when"] = condition }
        return .object(fields)
    }

    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}
