import LinkCore
import Logging

/// Decides what a click or an app open means (API.md §7, §8, §9) and records it: statistics, the `maxClicks`
/// counter, `linkClick` events and deferred-link tokens. Shared by both listeners.
final class LinkEngine: Sendable {
    let settings: LinksSettings
    let routes: RouteRegistry
    let store: any Store
    let clicks: ClickLedger
    let bus: EventBus
    let logger: Logger

    init(
        settings: LinksSettings, routes: RouteRegistry, store: any Store, clicks: ClickLedger, bus: EventBus,
        logger: Logger
    ) {
        self.settings = settings
        self.routes = routes
        self.store = store
        self.clicks = clicks
        self.bus = bus
        self.logger = logger
    }

    /// Decides a click. `counted`: a person's or bot's `GET` that is not a prefetch nor a JSON request; only then
    /// is anything recorded or a token made.
    func decide(_ facts: ClickFacts, lsp: String?, counted: Bool, now: Int64) throws -> ClickDecision {
        var platform = facts.platform
        if platform == .ambiguous && facts.bot == nil {
            switch lsp {
            case "ios": platform = .ios
            case "desktop": platform = .desktop
            default:
                return ClickDecision(
                    kind: .platformCheck, status: 200, target: nil, platform: Platform.ambiguous.rawValue, bot: nil,
                    page: LinkPage.platformCheck(
                        iosURL: LinkEngine.adding("_lsp", "ios", to: facts.linkAsClicked),
                        desktopURL: LinkEngine.adding("_lsp", "desktop", to: facts.linkAsClicked)))
            }
        }
        var facts = facts
        facts.platform = platform
        let resolver = routes.resolver
        let clicked = resolver.match(facts.location).map { resolver.table.routes[$0.index] }
        let resolution = try? resolver.resolve(facts.location, context: facts.context)
        var decision = ClickDecision(
            kind: .notFound, status: 404, target: nil, platform: platform.rawValue, bot: facts.bot,
            resolution: resolution, clicked: clicked)
        defer { if counted { record(decision, facts: facts, kind: facts.bot == nil ? .click : .bot, now: now) } }
        guard let resolution, let clicked else {
            notFound(&decision)
            return decision
        }
        if try isExpired(clicked, countingClick: counted && facts.bot == nil, now: now) {
            expired(&decision, route: clicked, resolution: resolution)
            return decision
        }
        let link = resolution.route.link
        if facts.bot == .preview, link?.definition.preview != nil || settings.preview.isSet {
            decision.kind = .preview
            decision.status = 200
            decision.page = previewPage(link, resolution: resolution, facts: facts)
            return decision
        }
        let targetPlatform: LinkPlatform =
            facts.bot != nil ? .desktop : LinkPlatform(rawValue: platform.rawValue) ?? .desktop
        guard var target = target(link, platform: targetPlatform, resolution: resolution) else {
            notFound(&decision)
            return decision
        }
        let person = facts.bot == nil
        if person, targetPlatform == .ios, let ios = settings.ios, ios.landingPage, isAppStore(target, ios) {
            decision.kind = .landing
            decision.status = 200
            decision.target = target
            let token = counted ? try makeToken(resolution, facts: facts, now: now) : nil
            decision.page = landingPage(link, resolution: resolution, facts: facts, store: target, token: token)
            return decision
        }
        if person, targetPlatform == .android, let android = settings.android, isPlayStore(target, android) {
            if counted {
                let token = try makeToken(resolution, facts: facts, now: now)
                target = PlayReferrer.adding(token: token, link: facts.linkAsClicked, to: target)
            }
            if facts.inAppBrowser, android.scheme != nil {
                decision.kind = .intent
                decision.status = 200
                decision.target = target
                let intent =
                    "intent://" + facts.host + facts.location.description + "#Intent;scheme=https;package="
                    + android.package.description + ";S.browser_fallback_url="
                    + URLEncoding.component(target) + ";end"
                decision.page = LinkPage.intent(intentURL: intent, storeURL: target, title: settings.siteName ?? "Open")
                return decision
            }
        }
        decision.kind = .redirect
        decision.status = settings.redirectStatus
        decision.target = target
        return decision
    }

    private func notFound(_ decision: inout ClickDecision) {
        decision.kind = .notFound
        if let url = settings.notFoundURL {
            decision.status = settings.redirectStatus
            decision.target = url
        } else {
            decision.status = 404
            decision.page = LinkPage.message(title: "Link not found", text: "This link does not lead anywhere.")
        }
    }

    private func expired(_ decision: inout ClickDecision, route: Route, resolution: Resolution) {
        decision.kind = .expired
        if let url = route.link?.expiredURL?.render(params: resolution.params, location: resolution.location) {
            decision.status = settings.redirectStatus
            decision.target = url
        } else {
            decision.status = 410
            decision.page = LinkPage.message(title: "Link expired", text: "This link is no longer valid.")
        }
    }

    /// Whether `route`'s link is outside its window or past `maxClicks`; with `countingClick`, a click within the
    /// limit is counted atomically in the store first.
    func isExpired(_ route: Route, countingClick: Bool, now: Int64) throws -> Bool {
        guard let link = route.link else { return false }
        if link.isOutsideWindow(at: now) { return true }
        guard let limit = link.maxClicks else { return false }
        let pattern = route.pattern.description
        if countingClick { return try !store.countLimitedClick(pattern: pattern, limit: limit) }
        return try store.limitedClicks(pattern: pattern) >= limit
    }

    /// The first that is set of: the route's target for `platform`, its fallback, the app's store, `webURL`.
    func target(_ link: RouteLink?, platform: LinkPlatform, resolution: Resolution) -> String? {
        let render = { (template: LinkTemplate) in
            template.render(params: resolution.params, location: resolution.location)
        }
        if let own = link?.target(for: platform) { return RouteLink.limitingCampaignToken(render(own)) }
        if let fallback = link?.fallback { return render(fallback) }
        switch platform {
        case .ios: if let store = settings.ios?.storeURL { return store }
        case .android: if let store = settings.android?.storeURL { return store }
        case .desktop: break
        }
        return settings.webURL.map(render)
    }

    /// The route's web target (`desktop`, `fallback`, else `webURL`), the preview's canonical link.
    private func webTarget(_ link: RouteLink?, resolution: Resolution) -> String? {
        let render = { (template: LinkTemplate) in
            template.render(params: resolution.params, location: resolution.location)
        }
        return (link?.desktop ?? link?.fallback ?? settings.webURL).map(render)
    }

    private func isAppStore(_ target: String, _ ios: LinksSettings.IOSApp) -> Bool {
        target == ios.storeURL || target.hasPrefix("https://apps.apple.com/")
            || target.hasPrefix("https://itunes.apple.com/")
    }

    private func isPlayStore(_ target: String, _ android: LinksSettings.AndroidApp) -> Bool {
        guard target.hasPrefix("https://play.google.com/store/apps/details?") else { return false }
        return PlayReferrer.queryValue("id", in: target) == android.package.description
    }

    private func previewTexts(_ link: RouteLink?, resolution: Resolution) -> (String?, String?, String?) {
        let render = { (template: LinkTemplate) in
            template.render(params: resolution.params, location: resolution.location)
        }
        let title = (link?.previewTitle ?? settings.preview.title).map(render)
        let description = (link?.previewDescription ?? settings.preview.description).map(render)
        let image = (link?.previewImage ?? settings.preview.image).map(render)
        return (title, description, image)
    }

    private func previewPage(_ link: RouteLink?, resolution: Resolution, facts: ClickFacts) -> String {
        let (title, description, image) = previewTexts(link, resolution: resolution)
        return LinkPage.preview(
            title: title ?? settings.siteName ?? facts.host, description: description, image: image,
            url: facts.linkAsClicked, siteName: settings.siteName, canonical: webTarget(link, resolution: resolution))
    }

    private func landingPage(
        _ link: RouteLink?, resolution: Resolution, facts: ClickFacts, store: String, token: String?
    ) -> String {
        let (title, description, _) = previewTexts(link, resolution: resolution)
        let copy = token.map { LinkEngine.adding("lst", $0, to: facts.linkAsClicked) } ?? facts.linkAsClicked
        let appID = PlayReferrer.appStoreID(store)
        let open = settings.ios?.scheme.map { $0 + "://" + String(facts.location.description.dropFirst()) }
        return LinkPage.landing(
            title: title ?? settings.siteName ?? "Get the app", description: description, copyText: copy,
            storeURL: store, appID: appID, appArgument: facts.linkAsClicked, openURL: open)
    }

    /// A new deferred-link token (API.md §9), kept in the store before the answer leaves.
    private func makeToken(_ resolution: Resolution, facts: ClickFacts, now: Int64) throws -> String {
        let token = DeferredTokens.newToken()
        try store.saveDeferredToken(
            DeferredToken(
                token: token, resolution: resolution.json(), platform: facts.platform.rawValue, clickedAt: now,
                link: facts.linkAsClicked, expiresAt: now + Int64(settings.deferredTTL) * 1000))
        return token
    }

    /// Counts a click or an open and emits `linkClick` (unmatched bots are counted only).
    func record(
        _ decision: ClickDecision, facts: ClickFacts, kind: ClickKind, now: Int64, decisionName: String? = nil
    ) {
        let day = UTCCalendar.day(ofMilliseconds: now)
        let route = decision.clicked
        let pattern = route?.pattern.description ?? ""
        if let bot = facts.bot {
            clicks.record(ClickKey(day: day, pattern: pattern, platform: bot.rawValue, kind: .bot), name: route?.name)
            if route == nil { return }
        } else if route == nil {
            clicks.record(
                ClickKey(day: day, pattern: "", platform: facts.platform.rawValue, kind: .unmatched), name: nil)
        } else {
            clicks.record(
                ClickKey(day: day, pattern: pattern, platform: facts.platform.rawValue, kind: kind), name: route?.name)
        }
        let extra: JSONValue = [
            "platform": .string(facts.platform.rawValue), "bot": facts.bot.map { .string($0.rawValue) } ?? .bool(false),
            "location": .string(facts.location.description), "target": decision.target.map(JSONValue.string) ?? .null,
            "decision": .string(decisionName ?? decision.kind.rawValue), "via": .string(facts.via),
        ]
        let name = route.map { $0.name ?? $0.pattern.description } ?? "-"
        _ = try? bus.emit(
            Location(segments: ["links", "clicks", name], query: Query([])), extra: extra,
            time: UTCCalendar.rfc3339(milliseconds: now))
    }

    /// `url` with the query item `name=value` appended.
    static func adding(_ name: String, _ value: String, to url: String) -> String {
        let fragment = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragment]
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + name + "=" + URLEncoding.component(value) + url[fragment...]
    }
}
