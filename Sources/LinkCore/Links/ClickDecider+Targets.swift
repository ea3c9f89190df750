/// Targets, previews and pages of a click decision.
extension ClickDecider {
    /// The first that is set of: the route's target for `platform`, its fallback, the app's store, `webURL`. An App
    /// Store campaign token in a route's target or fallback is cut to 40 bytes once filled in (§7; the store's is cut
    /// when the settings are read).
    public func target(_ link: RouteLink?, platform: LinkPlatform, resolution: Resolution) -> String? {
        let render = { (template: LinkTemplate) in
            template.render(params: resolution.params, location: resolution.location)
        }
        if let own = link?.target(for: platform) { return RouteLink.limitingCampaignToken(render(own)) }
        if let fallback = link?.fallback { return RouteLink.limitingCampaignToken(render(fallback)) }
        switch platform {
        case .ios: if let store = settings.ios?.storeURL { return store }
        case .android: if let store = settings.android?.storeURL { return store }
        case .desktop: break
        }
        return settings.webURL.map(render)
    }

    /// The route's web target (`desktop`, `fallback`, else `webURL`), the preview's canonical link.
    func webTarget(_ link: RouteLink?, resolution: Resolution) -> String? {
        let render = { (template: LinkTemplate) in
            template.render(params: resolution.params, location: resolution.location)
        }
        return (link?.desktop ?? link?.fallback ?? settings.webURL).map(render)
    }

    /// Whether `target` is the iOS app's App Store page (§9: "towards that app's store"): its `storeURL`, or an App
    /// Store page with the same app ID (another country's, one with a campaign). Another app's page is a plain
    /// redirect, as another package's Play page is; without an ID of its own (no `storeURL`, or one without an ID),
    /// every App Store page is taken for the app's.
    func isAppStore(_ target: String, _ ios: LinksSettings.IOSApp) -> Bool {
        if target == ios.storeURL { return true }
        guard StoreURL.isAppStore(target) else { return false }
        guard let appID = ios.storeURL.flatMap(PlayReferrer.appStoreID) else { return true }
        // `…/id123456789`, or the older `…/viewSoftware?id=123456789`.
        return (PlayReferrer.appStoreID(target) ?? PlayReferrer.queryValue("id", in: target)) == appID
    }

    func isPlayStore(_ target: String, _ android: LinksSettings.AndroidApp) -> Bool {
        guard StoreURL.isPlayDetails(target) else { return false }
        return PlayReferrer.queryValue("id", in: target) == android.package.description
    }

    func previewTexts(_ link: RouteLink?, resolution: Resolution) -> (String?, String?, String?) {
        let render = { (template: LinkTemplate) in
            template.render(params: resolution.params, location: resolution.location)
        }
        let title = (link?.previewTitle ?? settings.preview.title).map(render)
        let description = (link?.previewDescription ?? settings.preview.description).map(render)
        let image = (link?.previewImage ?? settings.preview.image).map(render)
        return (title, description, image)
    }

    func previewPage(_ link: RouteLink?, resolution: Resolution, facts: ClickFacts) -> [UInt8] {
        let (title, description, image) = previewTexts(link, resolution: resolution)
        return LinkPage.previewBytes(
            title: title ?? settings.siteName ?? facts.host, description: description, image: image,
            url: facts.linkAsClicked, siteName: settings.siteName, canonical: webTarget(link, resolution: resolution))
    }

    func landingPage(
        _ link: RouteLink?, resolution: Resolution, facts: ClickFacts, store: String, token: String?
    ) -> String {
        let (title, description, _) = previewTexts(link, resolution: resolution)
        let copy = token.map { ClickDecider.adding("lst", $0, to: facts.linkAsClicked) } ?? facts.linkAsClicked
        let appID = PlayReferrer.appStoreID(store)
        let open = settings.ios?.scheme.map { ClickDecider.appURL(scheme: $0, location: facts.location) }
        return LinkPage.landing(
            title: title ?? settings.siteName ?? "Get the app", description: description, copyText: copy,
            storeURL: store, appID: appID, appArgument: facts.linkAsClicked, openURL: open)
    }

    /// `<scheme>://<location>` (API.md §9: the iOS "Open it" link; `myapp://users/42`): the first segment stands
    /// where a URL's authority does, so an `@` or `:` in it is escaped (`/a%40b` gives `myapp://a%40b`, which §2
    /// reads back as the same location, where `myapp://a@b` is user `a` at host `b` to Foundation's `URL`).
    static func appURL(scheme: String, location: Location) -> String {
        let path = location.description.dropFirst()
        let firstEnd = path.firstIndex { $0 == "/" || $0 == "?" } ?? path.endIndex
        var first = ""
        for character in path[..<firstEnd] {
            switch character {
            case "@": first += "%40"
            case ":": first += "%3A"
            default: first.append(character)
            }
        }
        return scheme + "://" + first + path[firstEnd...]
    }

    /// `url` with the query item `name=value` appended (before any fragment).
    public static func adding(_ name: String, _ value: String, to url: String) -> String {
        let fragment = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragment]
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + name + "=" + URLEncoding.component(value) + url[fragment...]
    }
}
