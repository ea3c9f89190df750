/// The `link` object of a route definition (API.md §7), as written: where a click goes per platform, the preview
/// texts, and the validity window. Every field is optional; decoding checks types and timestamps, registration
/// (``compiled(for:policy:field:)``) checks the templates against the route's pattern.
public struct LinkDefinition: Sendable, Equatable {
    public var ios: String?
    public var android: String?
    public var desktop: String?
    public var fallback: String?
    /// Whether the route is handed to the app by the operating systems; `false` excludes it from the association
    /// files. `nil` means the default (`true`).
    public var appLinks: Bool?
    public var preview: Preview?
    /// The instants (as written, and in milliseconds since the Unix epoch) before and after which the link is
    /// expired.
    public var validFrom: String?
    public var validUntil: String?
    public var maxClicks: Int?
    public var expiredURL: String?

    /// The texts of a link preview card.
    public struct Preview: Sendable, Equatable {
        public var title: String?
        public var description: String?
        public var image: String?

        public init(title: String? = nil, description: String? = nil, image: String? = nil) {
            self.title = title
            self.description = description
            self.image = image
        }
    }

    public init(
        ios: String? = nil, android: String? = nil, desktop: String? = nil, fallback: String? = nil,
        appLinks: Bool? = nil, preview: Preview? = nil, validFrom: String? = nil, validUntil: String? = nil,
        maxClicks: Int? = nil, expiredURL: String? = nil
    ) {
        self.ios = ios
        self.android = android
        self.desktop = desktop
        self.fallback = fallback
        self.appLinks = appLinks
        self.preview = preview
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.maxClicks = maxClicks
        self.expiredURL = expiredURL
    }

    static let fieldNames: Set<String> = [
        "ios", "android", "desktop", "fallback", "appLinks", "preview", "validFrom", "validUntil", "maxClicks",
        "expiredURL",
    ]
    static let previewFieldNames: Set<String> = ["title", "description", "image"]

    /// Decodes a `link` object; `field` is its path (`routes[0].link`).
    public init(json: JSONValue, field: String) throws(LinkError) {
        let fields = try JSONFields(json, path: field, nullMeansAbsent: true)
        try fields.rejectUnknown(LinkDefinition.fieldNames)
        ios = try fields.string("ios")
        android = try fields.string("android")
        desktop = try fields.string("desktop")
        fallback = try fields.string("fallback")
        appLinks = try fields.bool("appLinks")
        if let value = fields["preview"], !value.isNull {
            let preview = try JSONFields(value, path: fields.field("preview"), nullMeansAbsent: true)
            try preview.rejectUnknown(LinkDefinition.previewFieldNames)
            self.preview = Preview(
                title: try preview.string("title"), description: try preview.string("description"),
                image: try preview.string("image"))
        }
        validFrom = try fields.string("validFrom")
        validUntil = try fields.string("validUntil")
        for (key, value) in [("validFrom", validFrom), ("validUntil", validUntil)] {
            if let value, UTCCalendar.milliseconds(parsing: value) == nil {
                throw LinkError(
                    .invalidRequest, "Field '\(fields.field(key))' must be an RFC 3339 timestamp, not '\(value)'",
                    details: ["field": .string(fields.field(key)), "reason": .string("not an RFC 3339 timestamp")])
            }
        }
        if let value = fields["maxClicks"], !value.isNull {
            // A whole number written as a decimal (`5.0`, `1e3`) is one, as for every other integer field.
            guard let count = value.intValue, count >= 1 else {
                throw LinkError(
                    .invalidRequest, "Field '\(fields.field("maxClicks"))' must be a positive integer",
                    details: ["field": .string(fields.field("maxClicks")), "reason": .string("not a positive integer")])
            }
            maxClicks = count
        }
        expiredURL = try fields.string("expiredURL")
    }

    /// The object as written (absent fields omitted); decoding it gives an equal definition.
    public func json() -> JSONValue {
        var object: JSONObject = [:]
        let strings: [(String, String?)] = [
            ("ios", ios), ("android", android), ("desktop", desktop), ("fallback", fallback),
        ]
        for (key, value) in strings { if let value { object[key] = .string(value) } }
        if let appLinks { object["appLinks"] = .bool(appLinks) }
        if let preview {
            var card: JSONObject = [:]
            if let title = preview.title { card["title"] = .string(title) }
            if let description = preview.description { card["description"] = .string(description) }
            if let image = preview.image { card["image"] = .string(image) }
            object["preview"] = .object(card)
        }
        if let validFrom { object["validFrom"] = .string(validFrom) }
        if let validUntil { object["validUntil"] = .string(validUntil) }
        if let maxClicks { object["maxClicks"] = .int(maxClicks) }
        if let expiredURL { object["expiredURL"] = .string(expiredURL) }
        return .object(object)
    }
}
