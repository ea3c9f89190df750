/// The answer to a resolve (API.md §3): where the link leads after redirect rules, and what the app should show.
///
/// `destination` is the route's JSON as registered: decode it into the app's own type with
/// ``JSONValue/decode(_:decoder:)``.
public struct Resolution: Sendable, Hashable, Codable {
    /// A route, by name (when it has one) and full pattern.
    public struct RouteRef: Sendable, Hashable, Codable {
        public let name: String?
        public let pattern: String

        public init(name: String?, pattern: String) {
            self.name = name
            self.pattern = pattern
        }
    }

    /// One route of the matched chain, root → leaf.
    public struct Match: Sendable, Hashable, Codable {
        public let pattern: String
        public let name: String?
        public let location: String
    }

    /// One redirect applied: from where, to where, by which route's rule.
    public struct Redirect: Sendable, Hashable, Codable {
        public let from: String
        public let to: String
        public let route: String?
        public let rule: Int

        public init(from: String, to: String, route: String?, rule: Int) {
            self.from = from
            self.to = to
            self.route = route
            self.rule = rule
        }
    }

    /// The final canonical location (path and query).
    public let location: String
    /// The final canonical path.
    public let path: String
    /// The leaf route.
    public let route: RouteRef
    /// Path parameters of the leaf match, percent-decoded.
    public let params: [String: String]
    /// The query; the last duplicate wins.
    public let query: [String: String]
    /// Every query item in order.
    public let queryItems: [QueryItem]
    /// The leaf route's destination, as registered (`null` when it has none).
    public let destination: JSONValue
    /// The leaf route's presentation hint (`push`, `present`, …).
    public let presentation: String?
    /// The matched chain, root → leaf.
    public let matches: [Match]
    /// Every redirect applied, in order.
    public let redirects: [Redirect]
    /// The leaf's `sameRoute` (`none`, `update`, `new`), only when `current` was given and is the same route.
    public let sameRoute: String?

    enum CodingKeys: String, CodingKey {
        case location, path, route, params, query, queryItems, destination, presentation, matches, redirects
        case sameRoute
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        location = try container.decode(String.self, forKey: .location)
        path = try container.decode(String.self, forKey: .path)
        route = try container.decode(RouteRef.self, forKey: .route)
        params = try container.decode([String: String].self, forKey: .params)
        query = try container.decode([String: String].self, forKey: .query)
        queryItems = try container.decode([QueryItem].self, forKey: .queryItems)
        destination = try container.decodeIfPresent(JSONValue.self, forKey: .destination) ?? .null
        presentation = try container.decodeIfPresent(String.self, forKey: .presentation)
        matches = try container.decode([Match].self, forKey: .matches)
        redirects = try container.decode([Redirect].self, forKey: .redirects)
        sameRoute = try container.decodeIfPresent(String.self, forKey: .sameRoute)
    }
}
