/// A route as a client writes it (API.md §3): a path relative to its parent, its own fields, and children.
///
/// Decoding checks shapes and types; the table checks patterns, templates and conflicts when the tree is
/// registered, because those depend on the parent.
public struct RouteDefinition: Sendable, Equatable {
    /// The pattern: absolute (`/users/:id`) at the root, relative (`posts/:postId`) for a child.
    public var path: String
    /// A unique name, `[A-Za-z0-9_.-]+`.
    public var name: String?
    /// Any JSON, returned as is; `.null` when absent.
    public var destination: JSONValue
    /// A free hint for the app (`push`, `present`, …).
    public var presentation: String?
    public var sameRoute: SameRoutePolicy
    /// Whether literals compare case-insensitively; `nil` inherits the parent's setting (`false` at the root).
    public var caseInsensitive: Bool?
    public var redirect: [RedirectRule]
    /// How the public listener treats a click on the route (API.md §7); `nil` when the route has none.
    public var link: LinkDefinition?
    /// Children, relative to this route; they inherit its parameters.
    public var routes: [RouteDefinition]

    public init(
        path: String, name: String? = nil, destination: JSONValue = .null, presentation: String? = nil,
        sameRoute: SameRoutePolicy = .new, caseInsensitive: Bool? = nil, redirect: [RedirectRule] = [],
        routes: [RouteDefinition] = [], link: LinkDefinition? = nil
    ) {
        self.path = path
        self.name = name
        self.destination = destination
        self.presentation = presentation
        self.sameRoute = sameRoute
        self.caseInsensitive = caseInsensitive
        self.redirect = redirect
        self.routes = routes
        self.link = link
    }

    /// Whether `name` is a valid route name: `[A-Za-z0-9_.-]+`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                    return true
                default: return false
                }
            }
    }
}
