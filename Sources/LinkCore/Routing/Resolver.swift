/// Resolves locations and names against one ``RouteTable`` snapshot (API.md §3), following redirect rules.
public struct Resolver: Sendable {
    /// The default of `routing.redirectLimit`.
    public static let defaultRedirectLimit = 5

    public var table: RouteTable
    /// When set, `http`/`https` locations from other hosts match nothing (`links.hosts`).
    public var hosts: HostAllowList?
    /// The most redirects one resolution may follow; a request may lower it, never raise it.
    public var redirectLimit: Int

    public init(table: RouteTable, hosts: HostAllowList? = nil, redirectLimit: Int = Resolver.defaultRedirectLimit) {
        self.table = table
        self.hosts = hosts
        self.redirectLimit = redirectLimit
    }

    /// Resolves a decoded request body (`POST /v1/resolve`).
    public func resolve(_ request: ResolveRequest) throws(LinkError) -> Resolution {
        let origin: Location
        switch request.target {
        case .url(let text): origin = try Location(text, fragmentAsPath: request.hashMode)
        case .name(let named): origin = try locate(named)
        }
        return try resolve(
            origin, context: request.context, current: request.current, redirectLimit: request.redirectLimit,
            evaluateRules: request.evaluate)
    }

    /// Resolves a location given as text (`GET /v1/resolve?url=…&current=…`).
    public func resolve(
        location text: String, context: JSONValue = .null, current: String? = nil, redirectLimit: Int? = nil,
        evaluateRules: Bool = true, hashMode: Bool = false
    ) throws(LinkError) -> Resolution {
        try resolve(
            Location(text, fragmentAsPath: hashMode), context: context, current: current,
            redirectLimit: redirectLimit, evaluateRules: evaluateRules)
    }

    /// Resolves a name: the location built from it is resolved like any other (redirects included), so the
    /// result is what opening that location gives.
    public func resolve(
        _ named: NamedLocation, context: JSONValue = .null, current: String? = nil, redirectLimit: Int? = nil
    ) throws(LinkError) -> Resolution {
        try resolve(locate(named), context: context, current: current, redirectLimit: redirectLimit)
    }

    /// The location of a name (`POST /v1/locate`); no redirects.
    public func locate(_ named: NamedLocation) throws(LinkError) -> Location {
        try table.location(named: named.name, params: named.params, query: named.query)
    }

    /// The route a location matches, without redirects: `nil` when none does or its host is not allowed.
    public func match(_ location: Location) -> (index: Int, params: PathParameters)? {
        if let hosts, !hosts.allows(location) { return nil }
        return table.match(location)
    }

    /// The leaf route of `current` (for `sameRoute`): `nil` when it matches nothing; `invalid_url` (details
    /// `field: "current"`) when it cannot be parsed.
    func currentRouteIndex(_ current: String) throws(LinkError) -> Int? {
        do {
            return match(try Location(current))?.index
        } catch {
            var details = error.details
            details["field"] = "current"
            throw LinkError(error.code, "Invalid 'current': \(error.message)", details: details)
        }
    }
}
