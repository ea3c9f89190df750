/// The answer to a resolve (API.md §3): the final location, its route and parameters, the chain of routes
/// root → leaf, the redirects taken, and the `sameRoute` hint.
public struct Resolution: Sendable {
    /// One route of the matched chain, with the part of the location it matched.
    public struct MatchedRoute: Sendable, Hashable {
        public let pattern: Pattern
        public let name: String?
        /// The canonical path this route matched (a parent's prefix of the final path).
        public let location: String

        public init(pattern: Pattern, name: String?, location: String) {
            self.pattern = pattern
            self.name = name
            self.location = location
        }
    }

    /// One redirect taken: from which location to which, by which rule of which route.
    public struct Redirect: Sendable, Hashable {
        public let from: String
        public let to: String
        /// The name of the route declaring the rule (`nil` when it has none).
        public let route: String?
        /// The rule's index in that route's `redirect` list.
        public let rule: Int

        public init(from: String, to: String, route: String?, rule: Int) {
            self.from = from
            self.to = to
            self.route = route
            self.rule = rule
        }
    }

    /// The fields, in one immutable box: a click passes and stores its resolution several times, and a copy is then
    /// one retain instead of one per field.
    private final class Fields: Sendable {
        let location: Location
        let routeIndex: Int
        let route: Route
        let params: PathParameters
        /// The routes of the table the resolution came from, for ``matches``.
        let routes: [Route]
        let redirects: [Redirect]
        let sameRoute: SameRoutePolicy?

        init(
            location: Location, routeIndex: Int, route: Route, params: PathParameters, routes: [Route],
            redirects: [Redirect], sameRoute: SameRoutePolicy?
        ) {
            self.location = location
            self.routeIndex = routeIndex
            self.route = route
            self.params = params
            self.routes = routes
            self.redirects = redirects
            self.sameRoute = sameRoute
        }
    }

    private let fields: Fields

    /// A resolution to `route`, the route at `routeIndex` of `routes` (a table's: the chain's routes are found
    /// there when ``matches`` is read).
    init(
        location: Location, routeIndex: Int, route: Route, params: PathParameters, routes: [Route],
        redirects: [Redirect], sameRoute: SameRoutePolicy?
    ) {
        fields = Fields(
            location: location, routeIndex: routeIndex, route: route, params: params, routes: routes,
            redirects: redirects, sameRoute: sameRoute)
    }

    /// The final location, after redirects.
    public var location: Location { fields.location }
    /// The index of the leaf route in the table the resolution came from.
    public var routeIndex: Int { fields.routeIndex }
    /// The leaf route.
    public var route: Route { fields.route }
    public var params: PathParameters { fields.params }
    /// The chain root → leaf, each route with the part of the location it matched. Written out when read (answers
    /// do; a click does not).
    public var matches: [MatchedRoute] {
        route.chain.map { index in
            let chained = fields.routes[index]
            let path = index == routeIndex ? location.path : location.path(prefix: chained.pattern.segments.count)
            return MatchedRoute(pattern: chained.pattern, name: chained.name, location: path)
        }
    }
    public var redirects: [Redirect] { fields.redirects }
    /// Set only when `current` was given and resolves (without redirects) to the same leaf route.
    public var sameRoute: SameRoutePolicy? { fields.sameRoute }
}

extension Resolution {
    /// The response body as a value, for the callers that embed it in another document (a deferred link's token,
    /// an app open): read back from ``write(to:)``, the one rendering of a resolution.
    public func json() -> JSONValue { JSONValue(writtenBy: write(to:)) }
}

extension Resolution {
    /// The response body of `POST /v1/resolve` (API.md §2), keys in the contract's order, `sameRoute` only when set;
    /// written straight into `writer`, without building a tree (the hot path).
    public func write(to writer: inout JSONWriter) {
        // The canonical location is encoded once: the path is its start, and every chain entry's location is one of
        // the path's prefixes.
        let (text, pathEnd) = location.encodedText()
        let path = text[..<pathEnd]
        writer.beginObject()
        writer.key("location")
        writer.string(utf8: text[...])
        writer.key("path")
        writer.string(utf8: path)
        // The route's constant members ("route", then "destination" and "presentation", and its entry in
        // "matches") are rendered once, by ``RouteAnswerParts/init(rendering:)`` below, and copied.
        route.withAnswerParts { writer.members($0.route) }
        writer.key("params")
        params.write(to: &writer)
        writer.key("query")
        location.query.writeMap(to: &writer)
        writer.key("queryItems")
        writer.beginArray()
        for item in location.query.items {
            writer.beginArray()
            writer.string(item.name)
            writer.string(item.value)
            writer.endArray()
        }
        writer.endArray()
        route.withAnswerParts { writer.members($0.destination) }
        writer.key("matches")
        writer.beginArray()
        for index in route.chain {
            // As ``matches`` has them, without building them.
            let chained = fields.routes[index]
            writer.beginObject()
            chained.withAnswerParts { writer.members($0.chainEntry) }
            writer.key("location")
            writer.string(
                utf8: index == routeIndex
                    ? path : path[..<Location.pathPrefixEnd(in: path, segments: chained.pattern.segments.count)])
            writer.endObject()
        }
        writer.endArray()
        writer.key("redirects")
        writer.beginArray()
        for redirect in redirects {
            writer.beginObject()
            writer.key("from")
            writer.string(redirect.from)
            writer.key("to")
            writer.string(redirect.to)
            writer.key("route")
            writer.string(redirect.route)
            writer.key("rule")
            writer.int(redirect.rule)
            writer.endObject()
        }
        writer.endArray()
        if let sameRoute {
            writer.key("sameRoute")
            writer.string(sameRoute.rawValue)
        }
        writer.endObject()
    }
}

extension RouteAnswerParts {
    /// The constant members of `route` in a resolve answer, in the contract's order and as ``Resolution/write(to:)``
    /// places them: `"route":{"name","pattern"}`; `"destination"` and `"presentation"`; and, in `matches`,
    /// `"pattern"` and `"name"` (each chained route's own, before its `"location"`).
    convenience init(rendering route: Route) {
        self.init(
            route: Self.members { writer in
                writer.key("route")
                writer.beginObject()
                writer.key("name")
                writer.string(route.name)
                writer.key("pattern")
                writer.string(route.pattern.description)
                writer.endObject()
            },
            destination: Self.members { writer in
                writer.key("destination")
                writer.value(route.destination)
                writer.key("presentation")
                writer.string(route.presentation)
            },
            chainEntry: Self.members { writer in
                writer.key("pattern")
                writer.string(route.pattern.description)
                writer.key("name")
                writer.string(route.name)
            })
    }

    /// What `write` writes inside an object, without the object's braces.
    private static func members(_ write: (inout JSONWriter) -> Void) -> ArraySlice<UInt8> {
        var writer = JSONWriter(capacity: 128)
        writer.beginObject()
        write(&writer)
        writer.endObject()
        let object = writer.finish()
        return object[1..<object.count - 1]
    }
}

extension Route {
    /// Calls `body` with the route's ``RouteAnswerParts``, rendered the first time they are needed.
    func withAnswerParts<Result>(_ body: (RouteAnswerParts) -> Result) -> Result {
        answerParts.withParts(render: { RouteAnswerParts(rendering: self) }, body)
    }
}
