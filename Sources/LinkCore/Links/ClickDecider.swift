/// The click decision of API.md §7, steps 2–6, as a pure function: the request's facts, the route table, the
/// time and the click count in; the decision, its target and its page out. The listener only translates
/// (reads headers, counts atomically in the store, keeps tokens, writes the answer).
public struct ClickDecider: Sendable {
    public let settings: LinksSettings

    public init(settings: LinksSettings) {
        self.settings = settings
    }

    /// What is known before deciding: the facts of the request and how the service counts it.
    public struct Input: Sendable {
        public var facts: ClickFacts
        /// The `_lsp` query value, honoured for an ambiguous agent only.
        public var lsp: String?
        public var now: Int64
        /// Whether the request counts (a `GET` that is not a prefetch nor JSON); only a counted click uses a token.
        public var counted: Bool
        /// Person clicks already counted towards the clicked route's `maxClicks` (the server counts this one
        /// atomically first, and passes the limit itself when it was refused); `nil` when the route has no limit.
        public var clicksCounted: Int?
        /// ``Resolver/match(_:)`` of the location, when the caller already looked it up (`.some(nil)`: none).
        public var match: (index: Int, params: PathParameters)??
        /// ``ClickDecider/resolution(_:lsp:match:resolver:)``, when the caller already worked it out (`.some(nil)`:
        /// it does not resolve).
        public var resolution: Resolution??
        /// Makes a fresh deferred-link token, called only when the decision sends a person to the app's store;
        /// `nil` when none can be kept now (the shared store is unreachable, API.md §12).
        public var token: @Sendable () -> String?
        /// For an answer whose page is never sent (`HEAD`): a stand-in of a token's length, written into a page that
        /// would carry a token, so that its `Content-Length` is the one a `GET` gets (§7: "HEAD answers the same
        /// status and headers"). Never stored, never in a header.
        public var standInToken: String?

        public init(
            facts: ClickFacts, lsp: String?, now: Int64, counted: Bool, clicksCounted: Int? = nil,
            match: (index: Int, params: PathParameters)?? = nil, resolution: Resolution?? = nil,
            token: @escaping @Sendable () -> String?
        ) {
            self.match = match
            self.resolution = resolution
            self.facts = facts
            self.lsp = lsp
            self.now = now
            self.counted = counted
            self.clicksCounted = clicksCounted
            self.token = token
        }
    }

    /// Whether `facts` with `lsp` gets the platform-check page (an ambiguous person without `_lsp`).
    public static func needsPlatformCheck(_ facts: ClickFacts, lsp: String?) -> Bool {
        facts.platform == .ambiguous && facts.bot == nil && lsp != "ios" && lsp != "desktop"
    }

    /// Whether a person's click from `platform` can be decided to carry a deferred-link token under these settings
    /// (``ClickDecision/drawsToken``): an iPhone's when stores get a landing page, an Android phone's when there is
    /// an Android app; an ambiguous agent's as an iPhone's (its `_lsp` may choose iOS). Every other person's click
    /// is decided without one.
    public func mayDrawToken(_ platform: Platform) -> Bool {
        switch platform {
        case .ios, .ambiguous: settings.ios?.landingPage == true
        case .android: settings.android != nil
        case .desktop: false
        }
    }

    /// The platform a click counts under: an ambiguous person's `_lsp` choice, else the agent's.
    public static func platform(_ facts: ClickFacts, lsp: String?) -> Platform {
        guard facts.platform == .ambiguous, facts.bot == nil else { return facts.platform }
        return lsp == "ios" ? .ios : lsp == "desktop" ? .desktop : .ambiguous
    }

    /// The link's resolution as a click is decided (§7 step 3): under the platform the click counts under (still
    /// `ambiguous` when the platform check is asked), with `match` the location's; `nil` when nothing matches, a rule
    /// intercepts, or a loop or the redirect limit is reached.
    public static func resolution(
        _ facts: ClickFacts, lsp: String?, match: (index: Int, params: PathParameters)?, resolver: Resolver
    ) -> Resolution? {
        var facts = facts
        facts.platform = platform(facts, lsp: lsp)
        return try? resolver.resolve(facts.location, context: facts.context, originMatch: .some(match))
    }

    public func decide(_ input: Input, resolver: Resolver) -> ClickDecision {
        var facts = input.facts
        // The platform the click counts under, then the link's resolution under it, which the platform check's JSON
        // answer carries too (§7 step 7).
        facts.platform = ClickDecider.platform(facts, lsp: input.lsp)
        let match = input.match ?? resolver.match(facts.location)
        let resolution =
            input.resolution ?? ClickDecider.resolution(input.facts, lsp: input.lsp, match: match, resolver: resolver)
        if ClickDecider.needsPlatformCheck(input.facts, lsp: input.lsp) {
            return ClickDecision(
                kind: .platformCheck, status: 200, target: nil, platform: Platform.ambiguous.rawValue, bot: nil,
                resolution: resolution,
                page: LinkPage.platformCheck(
                    iosURL: ClickDecider.adding("_lsp", "ios", to: facts.linkAsClicked),
                    desktopURL: ClickDecider.adding("_lsp", "desktop", to: facts.linkAsClicked)))
        }
        let clicked = match.map { resolver.table.routes[$0.index] }
        var decision = ClickDecision(
            kind: .notFound, status: 404, target: nil, platform: facts.platform.rawValue, bot: facts.bot,
            resolution: resolution, clicked: clicked)
        guard let resolution, let clicked else {
            notFound(&decision)
            return decision
        }
        if let link = clicked.link, let match,
            ClickDecider.isExpired(link, at: input.now, clicksCounted: input.clicksCounted)
        {
            expired(&decision, link: link, params: match.params, resolution: resolution)
            return decision
        }
        let link = resolution.route.link
        if facts.bot == .preview, link?.definition.preview != nil || settings.preview.isSet {
            decision.kind = .preview
            decision.status = 200
            decision.pageBytes = previewPage(link, resolution: resolution, facts: facts)
            return decision
        }
        let platform: LinkPlatform =
            facts.bot != nil ? .desktop : LinkPlatform(rawValue: facts.platform.rawValue) ?? .desktop
        guard var target = target(link, platform: platform, resolution: resolution) else {
            // Step 6's "none → a 404 page": the link was found, it leads nowhere for this person; `notFoundURL` is
            // step 3's, for a link that matched nothing.
            notFoundPage(&decision)
            return decision
        }
        let person = facts.bot == nil
        if person, platform == .ios, let ios = settings.ios, ios.landingPage, isAppStore(target, ios) {
            decision.kind = .landing
            decision.status = 200
            decision.target = target
            decision.drawsToken = true
            decision.token = input.counted ? input.token() : nil
            decision.tokenUsed = decision.token != nil
            decision.page = landingPage(
                link, resolution: resolution, facts: facts, store: target, token: decision.token ?? input.standInToken)
            return decision
        }
        if person, platform == .android, let android = settings.android, isPlayStore(target, android) {
            decision.drawsToken = true
            // An answer that is not counted (HEAD, a prefetch, JSON) has no token but the same link in its referrer:
            // a prefetched answer that the browser then shows still carries the link through the install.
            let token = input.counted ? input.token() : nil
            decision.tokenUsed = token != nil
            decision.token = token
            let stored = target
            target = PlayReferrer.adding(token: token, link: facts.linkAsClicked, to: stored)
            if facts.inAppBrowser, android.scheme != nil {
                decision.kind = .intent
                decision.status = 200
                decision.target = target
                let store =
                    token == nil && input.standInToken != nil
                    ? PlayReferrer.adding(token: input.standInToken, link: facts.linkAsClicked, to: stored) : target
                let intent =
                    "intent://" + facts.host + facts.location.description + "#Intent;scheme=https;package="
                    + android.package.description + ";S.browser_fallback_url=" + URLEncoding.component(store)
                    + ";end"
                decision.page = LinkPage.intent(intentURL: intent, storeURL: store, title: settings.siteName ?? "Open")
                return decision
            }
        }
        decision.kind = .redirect
        decision.status = settings.redirectStatus
        decision.target = target
        return decision
    }

    /// Whether `link` is outside its window at `now` or its `maxClicks` were all counted.
    public static func isExpired(_ link: RouteLink, at now: Int64, clicksCounted: Int?) -> Bool {
        if link.isOutsideWindow(at: now) { return true }
        if let limit = link.maxClicks, let counted = clicksCounted, counted >= limit { return true }
        return false
    }

    /// Step 3's not-found: a redirect to `links.notFoundURL` when set, else the 404 page.
    private func notFound(_ decision: inout ClickDecision) {
        guard let url = settings.notFoundURL else { return notFoundPage(&decision) }
        decision.kind = .notFound
        decision.status = settings.redirectStatus
        decision.target = url
    }

    /// The 404 page (step 3 without `notFoundURL`, step 6 always).
    private func notFoundPage(_ decision: inout ClickDecision) {
        decision.kind = .notFound
        decision.status = 404
        decision.page = LinkPage.message(title: "Link not found", text: "This link does not lead anywhere.")
    }

    /// Step 4. `expiredURL` is the clicked route's, so its `{param}`s are that route's (`params`, of the first
    /// match), whatever route the redirect rules led to; `{location}` is the resolved one, as in every template.
    private func expired(
        _ decision: inout ClickDecision, link: RouteLink, params: PathParameters, resolution: Resolution
    ) {
        decision.kind = .expired
        if let url = link.expiredURL?.render(params: params, location: resolution.location) {
            decision.status = settings.redirectStatus
            decision.target = url
        } else {
            decision.status = 410
            decision.page = LinkPage.message(title: "Link expired", text: "This link is no longer valid.")
        }
    }
}
