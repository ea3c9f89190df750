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
    /// Deferred-link tokens a minute one client address may have made by its clicks (API.md §9); past it a click
    /// is answered without one, as when the store cannot keep one (§12). A token is a row kept for `deferredTTL`, so
    /// without a bound one client could fill the store's disk by clicking.
    public var tokenRateLimit = 120
    /// The most deferred-link tokens the store keeps at once (claimed ones too, until they expire); past it a click
    /// is answered without one. The per-address budget bounds one client; this bounds many (a botnet, an IPv6
    /// client with many /64s).
    public var maxDeferredTokens = 100_000
    /// The longest link as clicked (bytes) that a token is made for and that a Play Store referrer carries: longer
    /// ones are answered without either, so the answer fits the connection's memory and a stored token stays small.
    public static let maxDeferredLinkBytes = 2048
    /// Clicks whose counts are kept in memory while a shared store is unreachable (API.md §12); beyond, the
    /// oldest are dropped.
    public var bufferedClicks = 100_000
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
    /// The service-wide card (`links.preview.title`, `.description`, `.image`); each text is a template.
    public static func preview(title: String?, description: String?, image: String?) throws(LinkError) -> Preview {
        var preview = Preview()
        preview.title = try title.map { (text) throws(LinkError) in
            try LinkTemplate(text: text, field: "links.preview.title")
        }
        preview.description = try description.map { (text) throws(LinkError) in
            try LinkTemplate(text: text, field: "links.preview.description")
        }
        preview.image = try image.map { (text) throws(LinkError) in
            try urlTemplate(text, field: "links.preview.image")
        }
        return preview
    }

    /// The iOS app (`links.apps.ios.*`): at least one app ID (`TEAMID.bundle.id`), the app's own scheme, a plain
    /// store URL.
    public static func iosApp(
        appIDs: [String]?, scheme: String?, storeURL: String?, landingPage: Bool?, webcredentials: Bool?
    ) throws(LinkError) -> IOSApp {
        let field = "links.apps.ios.appIDs"
        guard let appIDs, !appIDs.isEmpty else {
            throw LinkError.invalidSetting(field, value: "", reason: "at least one app ID is required")
        }
        var app = IOSApp(appIDs: try appIDs.map { (id) throws(LinkError) in try AppleAppID(id, field: field) })
        app.scheme = try scheme.map { (text) throws(LinkError) in try appScheme(text, field: "links.apps.ios.scheme") }
        app.storeURL = try storeURL.map { (url) throws(LinkError) in
            let field = "links.apps.ios.storeURL"
            let plain = try plainURL(url, field: field)
            // The store URL is the iOS target of every link without its own (§7 step 6): the same rule.
            if RouteLink.lacksProviderToken(try urlTemplate(plain, field: field)) {
                throw LinkError.invalidSetting(field, value: url, reason: RouteLink.providerTokenReason)
            }
            // And its campaign token is cut to 40 bytes, as a route's target's is once filled in.
            return RouteLink.limitingCampaignToken(plain)
        }
        app.landingPage = landingPage ?? false
        app.webcredentials = webcredentials ?? false
        return app
    }

    /// The Android app (`links.apps.android.*`): a package name and at least one signing-key fingerprint.
    public static func androidApp(
        package: String?, scheme: String?, fingerprints: [String]?, storeURL: String?
    ) throws(LinkError) -> AndroidApp {
        guard let package else {
            throw LinkError.invalidSetting(
                "links.apps.android.package", value: "", reason: "the package name is required")
        }
        let field = "links.apps.android.sha256CertFingerprints"
        guard let fingerprints, !fingerprints.isEmpty else {
            throw LinkError.invalidSetting(field, value: "", reason: "at least one fingerprint is required")
        }
        return AndroidApp(
            package: try AndroidPackageName(package, field: "links.apps.android.package"),
            scheme: try scheme.map { (text) throws(LinkError) in
                try appScheme(text, field: "links.apps.android.scheme")
            },
            fingerprints: try fingerprints.map { (print) throws(LinkError) in
                try CertificateFingerprint(print, field: field)
            },
            storeURL: try storeURL.map { (url) throws(LinkError) in
                try plainURL(url, field: "links.apps.android.storeURL")
            })
    }

    /// A URL scheme (`myapp`): a letter, then letters, digits, `+`, `-` or `.`; not `http(s)`; lower-cased.
    public static func appScheme(_ text: String, field: String) throws(LinkError) -> String {
        let valid =
            text.first.map { $0.isASCII && $0.isLetter } == true
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        guard valid, !["http", "https"].contains(text.lowercased()) else {
            throw LinkError.invalidSetting(field, value: text, reason: "must be an app's own URL scheme")
        }
        return text.lowercased()
    }
}
