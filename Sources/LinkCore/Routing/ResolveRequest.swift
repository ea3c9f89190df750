/// A resolve request (API.md §3): a location or a name, plus `context`, `current` and `redirectLimit`.
public struct ResolveRequest: Sendable {
    /// The members a resolve request may have (a set built once: from an array literal it was built per request).
    private static let fieldNames: Set<String> = [
        "url", "name", "params", "query", "context", "current", "redirectLimit", "evaluate", "hashMode",
    ]

    /// What to resolve.
    public enum Target: Sendable {
        /// A location: a bare path or a full URL.
        case url(String)
        /// A route name with parameters and query.
        case name(NamedLocation)
    }

    public var target: Target
    /// Any JSON, passed to redirect rules as `context`; `null` when absent.
    public var context: JSONValue
    /// The location the app is showing, for `sameRoute`.
    public var current: String?
    /// Lowers the service's redirect limit for this request (a higher value is ignored).
    public var redirectLimit: Int?
    /// `false`: match only (FJRouter's `canOpen`): no redirect or guard rule is evaluated.
    public var evaluate: Bool
    /// JJRouter's hash mode: a URL's fragment is the location (`https://x/#/users/42`).
    public var hashMode: Bool

    public init(
        target: Target, context: JSONValue = .null, current: String? = nil, redirectLimit: Int? = nil,
        evaluate: Bool = true, hashMode: Bool = false
    ) {
        self.target = target
        self.context = context
        self.current = current
        self.redirectLimit = redirectLimit
        self.evaluate = evaluate
        self.hashMode = hashMode
    }

    /// Decodes `{"url"}` or `{"name", "params"?, "query"?}`, plus optional `context`, `current`,
    /// `redirectLimit` (a non-negative integer). Both or neither of `url` and `name`, `params`/`query` with
    /// `url`, unknown fields and wrong types are `invalid_request`.
    public init(json: JSONValue) throws(LinkError) {
        let fields = try JSONFields(json, path: "", nullMeansAbsent: true)
        try fields.rejectUnknown(ResolveRequest.fieldNames)
        if let url = try fields.string("url") {
            if fields["name"] != nil || fields["params"] != nil || fields["query"] != nil {
                let extra = ["name", "params", "query"].first { fields[$0] != nil }!
                throw LinkError(
                    .invalidRequest, "Give either 'url' or 'name' (with 'params' and 'query'), not both",
                    details: ["field": .string(extra)])
            }
            target = .url(url)
        } else if fields["name"] != nil {
            target = .name(try NamedLocation(fields: fields))
        } else {
            throw LinkError(.invalidRequest, "Field 'url' or 'name' is required", details: ["field": "url"])
        }
        context = fields["context"] ?? .null
        current = try fields.string("current")
        redirectLimit = nil
        if let limit = fields["redirectLimit"], !limit.isNull {
            // A whole number past what an Int holds exactly (`1e20`) is a limit far above the configured one: capped
            // like any other, not refused.
            let huge: Int? = if case .double(let d) = limit, d >= 9.0e15, d.rounded() == d { Int.max } else { nil }
            guard let value = huge ?? limit.intValue, value >= 0 else {
                throw fields.mismatch("redirectLimit", "a non-negative integer", limit)
            }
            redirectLimit = value
        }
        evaluate = try fields.bool("evaluate") ?? true
        hashMode = try fields.bool("hashMode") ?? false
        if hashMode, case .name = target {
            throw LinkError(.invalidRequest, "'hashMode' goes with 'url'", details: ["field": "hashMode"])
        }
    }
}
