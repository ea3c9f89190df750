/// The public listener's settings (`links.*`, API.md §7), validated at start.
public struct LinksSettings: Sendable {
    public init() {}

    public var enabled = true
    public var port: UInt16 = 8081
    /// The service-wide web target (`https://www.example.com{location}`).
    public var webURL: LinkTemplate?
    public var notFoundURL: String?
    /// 301, 302, 307 or 308, for every redirect of the listener.
    public var redirectStatus = 302
    /// Seconds a deferred-link token stays valid.
    public var deferredTTL = 86_400
    /// Requests a minute one client address may make to the app endpoints on the links listener.
    public var appRateLimit = 30
    public var siteName: String?
    public var preview = Preview()
    public var faviconURL: String?
    /// The text of `/robots.txt`; `nil` for the default (`Allow: /`).
    public var robotsTxt: String?
    public var ios: IOSApp?
    public var android: AndroidApp?

    /// The service-wide preview card, field by field.
    public struct Preview: Sendable {
        public init() {}

        public var title: LinkTemplate?
        public var description: LinkTemplate?
        public var image: LinkTemplate?
        public var isSet: Bool { title != nil || description != nil || image != nil }
    }

    public struct IOSApp: Sendable {
        public var appIDs: [AppleAppID]
        public var scheme: String?
        public var storeURL: String?
        public var landingPage = false
        public var webcredentials = false

        public init(appIDs: [AppleAppID]) {
            self.appIDs = appIDs
        }
    }

    public struct AndroidApp: Sendable {
        public var package: AndroidPackageName
        public var scheme: String?
        public var fingerprints: [CertificateFingerprint]
        public var storeURL: String?

        public init(
            package: AndroidPackageName, scheme: String?, fingerprints: [CertificateFingerprint], storeURL: String?
        ) {
            self.package = package
            self.scheme = scheme
            self.fingerprints = fingerprints
            self.storeURL = storeURL
        }
    }

    /// The app schemes `link` templates may use.
    public var linkPolicy: LinkPolicy { LinkPolicy(iosScheme: ios?.scheme, androidScheme: android?.scheme) }

    /// A template of the service-wide settings: only `{location}`, `{path}` and `{query}` may stand in it.
    public static func urlTemplate(_ text: String, field: String) throws(LinkError) -> LinkTemplate {
        try LinkTemplate(url: text, field: field, schemes: ["https", "http"])
            .validated(against: try Pattern("/"), field: field)
    }

    /// A plain absolute `http(s)` URL setting.
    public static func plainURL(_ text: String, field: String) throws(LinkError) -> String {
        let template = try urlTemplate(text, field: field)
        guard !template.description.contains("{") else {
            throw LinkError.invalidSetting(field, value: text, reason: "placeholders are not allowed here")
        }
        return text
    }
}

extension LinksSettings {
    /// Reads `links.preview` (an object of `title`, `description`, `image`).
    public static func preview(_ value: JSONValue) throws(LinkError) -> Preview {
        let fields = try SettingsObject(value, field: "links.preview", known: ["title", "description", "image"])
        var preview = Preview()
        if let title = try fields.string("title") {
            preview.title = try LinkTemplate(text: title, field: fields.path("title"))
        }
        if let text = try fields.string("description") {
            preview.description = try LinkTemplate(text: text, field: fields.path("description"))
        }
        if let image = try fields.string("image") {
            preview.image = try urlTemplate(image, field: fields.path("image"))
        }
        return preview
    }

    /// Reads `links.apps` (`ios`, `android`), checking app IDs, package names and fingerprints.
    public static func apps(_ value: JSONValue, into settings: inout LinksSettings) throws(LinkError) {
        let apps = try SettingsObject(value, field: "links.apps", known: ["ios", "android"])
        if let ios = apps.object("ios") {
            let fields = try SettingsObject(
                ios, field: "links.apps.ios", known: ["appIDs", "scheme", "storeURL", "landingPage", "webcredentials"])
            let ids = try fields.strings("appIDs")
            guard let ids, !ids.isEmpty else {
                throw LinkError.invalidSetting(
                    fields.path("appIDs"), value: "", reason: "at least one app ID is required")
            }
            var app = IOSApp(
                appIDs: try ids.map { (id) throws(LinkError) in try AppleAppID(id, field: fields.path("appIDs")) })
            app.scheme = try fields.scheme("scheme")
            app.storeURL = try fields.string("storeURL").map { (url) throws(LinkError) in
                try plainURL(url, field: fields.path("storeURL"))
            }
            app.landingPage = try fields.bool("landingPage") ?? false
            app.webcredentials = try fields.bool("webcredentials") ?? false
            settings.ios = app
        }
        if let android = apps.object("android") {
            let fields = try SettingsObject(
                android, field: "links.apps.android",
                known: ["package", "scheme", "sha256CertFingerprints", "storeURL"])
            guard let package = try fields.string("package") else {
                throw LinkError.invalidSetting(
                    fields.path("package"), value: "", reason: "the package name is required")
            }
            let prints = try fields.strings("sha256CertFingerprints") ?? []
            guard !prints.isEmpty else {
                throw LinkError.invalidSetting(
                    fields.path("sha256CertFingerprints"), value: "", reason: "at least one fingerprint is required")
            }
            settings.android = AndroidApp(
                package: try AndroidPackageName(package, field: fields.path("package")),
                scheme: try fields.scheme("scheme"),
                fingerprints: try prints.map { (print) throws(LinkError) in
                    try CertificateFingerprint(print, field: fields.path("sha256CertFingerprints"))
                },
                storeURL: try fields.string("storeURL").map { (url) throws(LinkError) in
                    try plainURL(url, field: fields.path("storeURL"))
                })
        }
    }
}

/// The members of a settings object, read with errors that name the setting.
private struct SettingsObject {
    let object: JSONObject
    let field: String

    init(_ value: JSONValue, field: String, known: Set<String>) throws(LinkError) {
        guard case .object(let object) = value else {
            throw LinkError.invalidSetting(field, value: value.encodedString(), reason: "must be an object")
        }
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw LinkError.invalidSetting(field + "." + unknown, value: "", reason: "unknown setting")
        }
        self.object = object
        self.field = field
    }

    func path(_ key: String) -> String { field + "." + key }

    func object(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func string(_ key: String) throws(LinkError) -> String? {
        guard let value = object(key) else { return nil }
        guard case .string(let text) = value, !text.isEmpty else {
            throw LinkError.invalidSetting(
                path(key), value: value.encodedString(), reason: "must be a non-empty string")
        }
        return text
    }

    func bool(_ key: String) throws(LinkError) -> Bool? {
        guard let value = object(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw LinkError.invalidSetting(path(key), value: value.encodedString(), reason: "must be true or false")
        }
        return flag
    }

    func strings(_ key: String) throws(LinkError) -> [String]? {
        guard let value = object(key) else { return nil }
        guard case .array(let items) = value else {
            throw LinkError.invalidSetting(
                path(key), value: value.encodedString(), reason: "must be an array of strings")
        }
        var strings: [String] = []
        for item in items {
            guard case .string(let text) = item else {
                throw LinkError.invalidSetting(path(key), value: item.encodedString(), reason: "must be a string")
            }
            strings.append(text)
        }
        return strings
    }

    /// A URL scheme (`myapp`): a letter, then letters, digits, `+`, `-` or `.`; lower-cased.
    func scheme(_ key: String) throws(LinkError) -> String? {
        guard let text = try string(key) else { return nil }
        let valid =
            text.first.map { $0.isASCII && $0.isLetter } == true
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        guard valid, !["http", "https"].contains(text.lowercased()) else {
            throw LinkError.invalidSetting(path(key), value: text, reason: "must be an app's own URL scheme")
        }
        return text.lowercased()
    }
}
