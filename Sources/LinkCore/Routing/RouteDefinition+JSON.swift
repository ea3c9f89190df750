extension RouteDefinition {
    static let fieldNames: Set<String> = [
        "path", "name", "destination", "presentation", "sameRoute", "caseInsensitive", "redirect", "routes", "link",
    ]

    /// Decodes a route tree. A missing `path`, a field of the wrong type, an invalid `name` or `sameRoute`, or a
    /// field the contract does not define is `invalid_request` (details `field`, e.g. `routes[0].name`); a
    /// malformed redirect rule is `invalid_rule`.
    public init(json: JSONValue, field: String = "") throws(LinkError) {
        let fields = try JSONFields(json, path: field, nullMeansAbsent: true)
        try fields.rejectUnknown(RouteDefinition.fieldNames)
        path = try fields.requiredString("path")
        name = try fields.string("name")
        if let name, !RouteDefinition.isValidName(name) {
            throw LinkError(
                .invalidRequest, "Invalid route name '\(name)': it must match [A-Za-z0-9_.-]+",
                details: ["field": .string(fields.field("name")), "name": .string(name)])
        }
        destination = fields["destination"] ?? .null
        presentation = try fields.string("presentation")
        sameRoute = .new
        if let policy = try fields.string("sameRoute") {
            guard let parsed = SameRoutePolicy(rawValue: policy) else {
                throw LinkError(
                    .invalidRequest, "Field '\(fields.field("sameRoute"))' must be \"none\", \"update\" or \"new\"",
                    details: ["field": .string(fields.field("sameRoute"))])
            }
            sameRoute = parsed
        }
        caseInsensitive = try fields.bool("caseInsensitive")
        redirect = []
        for (index, rule) in (try fields.array("redirect") ?? []).enumerated() {
            redirect.append(try RedirectRule(json: rule, field: fields.field("redirect") + "[\(index)]"))
        }
        if let value = fields["link"], !value.isNull {
            link = try LinkDefinition(json: value, field: fields.field("link"))
        }
        routes = []
        for (index, child) in (try fields.array("routes") ?? []).enumerated() {
            routes.append(try RouteDefinition(json: child, field: fields.field("routes") + "[\(index)]"))
        }
    }

    /// The definition as JSON, children included; fields left at their default are omitted (`sameRoute` is
    /// always written). Decoding it gives an equal definition.
    public func json() -> JSONValue {
        var object = ownFields()
        if !routes.isEmpty { object["routes"] = .array(routes.map { $0.json() }) }
        return .object(object)
    }

    /// The fields of this route without its children.
    func ownFields() -> JSONObject {
        var object: JSONObject = ["path": .string(path)]
        if let name { object["name"] = .string(name) }
        if !destination.isNull { object["destination"] = destination }
        if let presentation { object["presentation"] = .string(presentation) }
        object["sameRoute"] = .string(sameRoute.rawValue)
        if let caseInsensitive { object["caseInsensitive"] = .bool(caseInsensitive) }
        if !redirect.isEmpty { object["redirect"] = .array(redirect.map(\.json)) }
        if let link { object["link"] = link.json() }
        return object
    }
}
