/// A route's `link` once registered: its templates parsed and checked against the route's full pattern.
///
/// An immutable reference, like ``Route``: a click reads it several times, and a copy of nine templates would retain
/// each of them.
public final class RouteLink: Sendable {
    public let definition: LinkDefinition
    public let ios: LinkTemplate?
    public let android: LinkTemplate?
    public let desktop: LinkTemplate?
    public let fallback: LinkTemplate?
    public let previewTitle: LinkTemplate?
    public let previewDescription: LinkTemplate?
    public let previewImage: LinkTemplate?
    public let expiredURL: LinkTemplate?
    /// Milliseconds since the Unix epoch.
    public let validFrom: Int64?
    public let validUntil: Int64?
    public let maxClicks: Int?
    /// Whether the association files hand the route to the app (`appLinks`, default `true`).
    public var appLinks: Bool { definition.appLinks ?? true }

    /// The longest App Store campaign token (`ct`) Apple keeps, in bytes.
    public static let campaignTokenLimit = 40

    /// Compiles `definition` for a route with `pattern`.
    ///
    /// - Throws: `invalid_request` (details `field`, `reason`) for a template that is not an absolute URL with a
    ///   literal host, whose scheme is not allowed there, or that names a parameter `pattern` lacks; and for an
    ///   App Store target with a campaign token `ct` but no provider token `pt`.
    /// `stored`: read back from the store, where an earlier version may have kept a URL template with a control
    /// character; it is taken as it is rather than stop the start (its answer is then a 500, not a broken header).
    public init(
        _ definition: LinkDefinition, pattern: Pattern, policy: LinkPolicy, field: String, stored: Bool = false
    ) throws(LinkError) {
        self.definition = definition
        func url(_ text: String?, _ key: String, appScheme: String? = nil) throws(LinkError) -> LinkTemplate? {
            guard let text else { return nil }
            let path = field + "." + key
            var schemes: Set<String> = ["https", "http"]
            if let appScheme { schemes.insert(appScheme.lowercased()) }
            return try LinkTemplate(url: text, field: path, schemes: schemes, refusingControls: !stored)
                .validated(against: pattern, field: path)
        }
        func text(_ text: String?, _ key: String) throws(LinkError) -> LinkTemplate? {
            guard let text else { return nil }
            let path = field + ".preview." + key
            return try LinkTemplate(text: text, field: path).validated(against: pattern, field: path)
        }
        ios = try url(definition.ios, "ios", appScheme: policy.iosScheme)
        android = try url(definition.android, "android", appScheme: policy.androidScheme)
        desktop = try url(definition.desktop, "desktop")
        fallback = try url(definition.fallback, "fallback")
        previewTitle = try text(definition.preview?.title, "title")
        previewDescription = try text(definition.preview?.description, "description")
        previewImage = try url(definition.preview?.image, "preview.image")
        expiredURL = try url(definition.expiredURL, "expiredURL")
        validFrom = definition.validFrom.flatMap(UTCCalendar.milliseconds(parsing:))
        validUntil = definition.validUntil.flatMap(UTCCalendar.milliseconds(parsing:))
        maxClicks = definition.maxClicks
        if let ios, RouteLink.lacksProviderToken(ios, asWritten: stored) {
            throw LinkTemplate.invalid(ios.description, field: field + ".ios", reason: RouteLink.providerTokenReason)
        }
        // The fallback is the iOS target of a link without `ios` (§7 step 6): the same rule (not for what an earlier
        // version stored, which did not check it).
        if !stored, ios == nil, let fallback, RouteLink.lacksProviderToken(fallback) {
            throw LinkTemplate.invalid(
                fallback.description, field: field + ".fallback", reason: RouteLink.providerTokenReason)
        }
        if !stored, let validFrom, let validUntil, validFrom > validUntil {
            // A link that can never be valid is a mistake, said at once rather than found on the first click.
            throw LinkError(
                .invalidRequest, "Field '\(field).validUntil' is before its validFrom: the link would never be valid",
                details: ["field": .string(field + ".validUntil"), "reason": .string("before validFrom")])
        }
    }

    /// The route's own target for `platform` (`ios`, `android`, `desktop`); `nil` when the route sets none.
    public func target(for platform: LinkPlatform) -> LinkTemplate? {
        switch platform {
        case .ios: return ios
        case .android: return android
        case .desktop: return desktop
        }
    }

    /// Whether the link can expire while the route stays as it is: it has a validity window or a `maxClicks`, so
    /// that a click's decision depends on the time or on the clicks counted, not only on the route table.
    public var canExpire: Bool { validFrom != nil || validUntil != nil || maxClicks != nil }

    /// Whether `milliseconds` lies outside the validity window.
    public func isOutsideWindow(at milliseconds: Int64) -> Bool {
        if let validFrom, milliseconds < validFrom { return true }
        if let validUntil, milliseconds > validUntil { return true }
        return false
    }

    /// Whether `target` is an App Store URL with a campaign token `ct` but no provider token `pt` (API.md §7: App
    /// Store Connect drops a campaign without its provider). `asWritten`: names compared as written, as an
    /// earlier version did (for what it stored).
    static func lacksProviderToken(_ target: LinkTemplate, asWritten: Bool = false) -> Bool {
        // The host with or without its trailing dot (the same host); read back as an earlier version checked it.
        guard target.host == "apps.apple.com" || (!asWritten && target.host == "apps.apple.com.") else { return false }
        let names = queryNames(target.description, asWritten: asWritten)
        return names.contains("ct") && !names.contains("pt")
    }

    static let providerTokenReason = "an App Store campaign token 'ct' needs the provider token 'pt'"

    /// The names of the query items of a URL (or template) text: percent-decoded (`c%74` is `ct`) and only those
    /// with a value (`pt=` names nothing), or, `asWritten`, every name as written (the check an earlier version
    /// made, with which stored routes are read back).
    static func queryNames(_ text: String, asWritten: Bool = false) -> Set<String> {
        guard let mark = text.firstIndex(of: "?") else { return [] }
        let query = text[text.index(after: mark)...].prefix { $0 != "#" }
        if asWritten { return Set(query.split(separator: "&").map { String($0.prefix { $0 != "=" }) }) }
        var names: Set<String> = []
        for item in query.split(separator: "&") {
            guard let equals = item.firstIndex(of: "="), item.index(after: equals) < item.endIndex else { continue }
            let name = String(item[..<equals])
            names.insert((try? PercentCoding.decode(name, allowControls: true)) ?? name)
        }
        return names
    }

    /// `url` with an App Store campaign token `ct` (its name read decoded) longer than 40 bytes (decoded) cut to 40,
    /// at a character boundary, and written `ct=`; other URLs unchanged.
    public static func limitingCampaignToken(_ url: String) -> String {
        guard StoreURL.isAppStoreWithCampaign(url), let mark = url.firstIndex(of: "?")
        else { return url }
        let fragmentStart = url[mark...].firstIndex(of: "#") ?? url.endIndex
        var items = url[url.index(after: mark)..<fragmentStart].split(separator: "&", omittingEmptySubsequences: false)
            .map(String.init)
        var changed = false
        for (index, item) in items.enumerated() {
            // The name read decoded, as the `pt` rule reads it (`c%74` is `ct`).
            guard let equals = item.firstIndex(of: "="),
                (try? PercentCoding.decode(String(item[..<equals]), allowControls: true)) == "ct",
                let value = try? PercentCoding.decode(String(item[item.index(after: equals)...]), allowControls: true),
                value.utf8.count > campaignTokenLimit
            else { continue }
            var cut = ""
            for character in value {
                if cut.utf8.count + String(character).utf8.count > campaignTokenLimit { break }
                cut.append(character)
            }
            items[index] = "ct=" + PercentCoding.encode(cut, allowing: .unreserved)
            changed = true
        }
        guard changed else { return url }
        return String(url[...mark]) + items.joined(separator: "&") + String(url[fragmentStart...])
    }
}

/// The platforms a link has targets for.
public enum LinkPlatform: String, Sendable, CaseIterable {
    case ios, android, desktop
}

/// What route registration needs to know of the service's settings to check `link` templates: the apps' URL
/// schemes, which `ios` and `android` targets may use.
public struct LinkPolicy: Sendable, Equatable {
    public var iosScheme: String?
    public var androidScheme: String?

    public init(iosScheme: String? = nil, androidScheme: String? = nil) {
        self.iosScheme = iosScheme
        self.androidScheme = androidScheme
    }
}
