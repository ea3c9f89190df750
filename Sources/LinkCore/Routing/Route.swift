/// A registered route: one node of a registered tree, with its full pattern and effective settings.
///
/// An immutable reference, so that tables, matches and resolutions share it without copying its fields.
public final class Route: Sendable {
    /// The full pattern, parent segments included.
    public let pattern: Pattern
    public let source: RouteSource
    /// The route's own definition (its `routes` are empty: children are routes of their own); its rules are
    /// compiled and validated.
    public let definition: RouteDefinition
    /// The effective case-insensitivity (the definition's, else the parent's, else `false`).
    public let caseInsensitive: Bool
    /// The index of the parent route in ``RouteTable/routes``.
    public let parentIndex: Int?
    /// Indices of the routes from the root of the tree to this one, this one included.
    public let chain: [Int]
    /// The compiled `link` (API.md §7); `nil` when the route has none.
    public let link: RouteLink?
    /// Its constant members of a resolve answer, once the route has been part of one.
    let answerParts = RouteAnswerPartsSlot()

    init(
        pattern: Pattern, source: RouteSource, definition: RouteDefinition, caseInsensitive: Bool, parentIndex: Int?,
        chain: [Int], link: RouteLink? = nil
    ) {
        self.link = link
        self.pattern = pattern
        self.source = source
        self.definition = definition
        self.caseInsensitive = caseInsensitive
        self.parentIndex = parentIndex
        self.chain = chain
    }

    /// The same route at another place in a table.
    func moved(parentIndex: Int?, chain: [Int]) -> Route {
        Route(
            pattern: pattern, source: source, definition: definition, caseInsensitive: caseInsensitive,
            parentIndex: parentIndex, chain: chain, link: link)
    }

    public var name: String? { definition.name }
    public var destination: JSONValue { definition.destination }
    public var presentation: String? { definition.presentation }
    public var sameRoute: SameRoutePolicy { definition.sameRoute }
    public var redirect: [RedirectRule] { definition.redirect }

    /// The key under which two routes are the same pattern: parameter names ignored, and for a
    /// case-insensitive route, literals lower-cased.
    var foldedShape: String { pattern.shape(caseInsensitive: true) }
}

extension Route {
    /// The route as listed by `GET /v1/routes`: `name`, `pattern`, `source`, `parent` (the parent's full
    /// pattern or `null`), then the definition's fields (`path` as written, `destination`, `presentation`,
    /// `sameRoute`, `caseInsensitive` (effective), `redirect`).
    public func json(parentPattern: Pattern?) -> JSONValue {
        [
            "name": name.map(JSONValue.string) ?? .null,
            "pattern": .string(pattern.description),
            "source": .string(source.rawValue),
            "parent": parentPattern.map { .string($0.description) } ?? .null,
            "path": .string(definition.path),
            "destination": destination,
            "presentation": presentation.map(JSONValue.string) ?? .null,
            "sameRoute": .string(sameRoute.rawValue),
            "caseInsensitive": .bool(caseInsensitive),
            "redirect": .array(redirect.map(\.json)),
            "link": definition.link?.json() ?? .null,
        ]
    }
}

/// A route reported by a registration: `{"name", "pattern"}`.
public struct RegisteredRoute: Sendable, Hashable {
    public let name: String?
    public let pattern: Pattern

    public func json() -> JSONValue {
        ["name": name.map(JSONValue.string) ?? .null, "pattern": .string(pattern.description)]
    }
}
