import LinkCore

/// Builds tables from JSON text, as clients send routes.
enum RoutingFixtures {
    static func json(_ text: String) throws -> JSONValue {
        try JSONParser.parse(text)
    }

    /// A table from `[route, route, …]` JSON, each registered as an API tree.
    static func table(_ routes: String, source: RouteSource = .api) throws -> RouteTable {
        var table = RouteTable()
        for route in try json(routes).arrayValue ?? [] {
            table = try table.registering(RouteDefinition(json: route), source: source).table
        }
        return table
    }

    static func resolver(_ routes: String, hosts: [String]? = nil, redirectLimit: Int = 5) throws -> Resolver {
        Resolver(table: try table(routes), hosts: hosts.map(HostAllowList.init), redirectLimit: redirectLimit)
    }

    /// The route definition of API.md §3.
    static let apiExample = """
        {
          "path": "/users/:id",
          "name": "user",
          "destination": {"screen": "UserProfile"},
          "presentation": "push",
          "sameRoute": "update",
          "caseInsensitive": false,
          "redirect": [
            {"when": {"!": {"var": "context.loggedIn"}}, "to": "/login?from={location}"},
            {"when": {"==": [{"var": "params.id"}, "0"]}, "action": "intercept"}
          ],
          "routes": [{"path": "posts/:postId", "name": "userPost"}]
        }
        """
}
