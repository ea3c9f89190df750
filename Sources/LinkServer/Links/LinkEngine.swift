import LinkCore
import Logging
import Synchronization

/// Decides what a click or an app open means (API.md §7, §8, §9) and records it: statistics, the `maxClicks`
/// counter, `linkClick` events and deferred-link tokens. Shared by both listeners.
final class LinkEngine: Sendable {
    let settings: LinksSettings
    let routes: LiveRoutes
    let store: any Store
    let clicks: ClickLedger
    let hub: any EventHub
    let logger: Logger
    let decider: ClickDecider
    /// Clicks decided before, by their requests' bytes (``decideClick(_:key:counted:now:facts:)``).
    private let keptClicks = KeptAnswers<KeptClick>()
    private let metrics: ServiceMetrics?
    /// Whether the store can be written now (a shared store that stopped answering cannot, API.md §12).
    private let storeReachable: @Sendable () -> Bool
    /// A store write a click could not make, logged at most ``LogBudget/linesPerWindow`` times per 10 s: a full disk
    /// fails every click that would write.
    private let storeFailures = BudgetedLog()
    /// The deferred-link tokens the store keeps, as last counted (``recountTokens()``) plus those made since: no
    /// token is made past ``LinksSettings/maxDeferredTokens``.
    private let storedTokens = Atomic<Int>(0)

    init(
        settings: LinksSettings, routes: LiveRoutes, store: any Store, clicks: ClickLedger, hub: any EventHub,
        logger: Logger, metrics: ServiceMetrics? = nil, storeReachable: @escaping @Sendable () -> Bool = { true }
    ) {
        self.storeReachable = storeReachable
        self.metrics = metrics
        self.settings = settings
        self.routes = routes
        self.store = store
        self.clicks = clicks
        self.hub = hub
        self.logger = logger
        decider = ClickDecider(settings: settings)
    }

    /// Decides a click: counts it towards the clicked route's `maxClicks` atomically first when it is a counted
    /// person click, runs the pure ``ClickDecider``, keeps the token it used, and records the click.
    func decide(
        _ facts: ClickFacts, lsp: String?, counted: Bool, head: Bool = false, now: Int64,
        tokenAllowed: @escaping @Sendable () -> Bool = { true }
    ) throws -> ClickDecision {
        let click = try routes.withResolver { resolver in
            try decided(
                facts, lsp: lsp, counted: counted, head: head, now: now, resolver: resolver, tokenAllowed: tokenAllowed)
        }
        recorded(click, counted: counted, now: now)
        return click.decision
    }

    /// A click on the links listener (`classes`: its agent's), decided as ``decide(_:lsp:counted:now:)`` decides it,
    /// or answered from the clicks kept by `key` (``KeptKey/Click``) for the route snapshot they were decided
    /// on. A decision reads the request's target and headers and the route table, nothing else, unless it draws a
    /// deferred-link token (``ClickDecision/drawsToken``: a store's landing page, a Play Store redirect) or the
    /// clicked link can expire (then it reads the time and the clicks counted): those are decided every time, and a
    /// person whose platform may draw a token under these settings is not looked up at all. A click is counted
    /// (when `counted`), emitted and put in the metrics every time. Chat apps and crawlers fetch the same links again
    /// and again, and people on the same browser click the same links: the second time, the location is not parsed,
    /// nor resolved, nor its page written.
    /// A `HEAD` (`head`) is decided as its `GET` would be, uncounted, and a page that would carry a token carries a
    /// stand-in of its length (``ClickDecider/Input/standInToken``).
    /// `tokenAllowed` is asked when the decision would make a deferred-link token (the client's token budget).
    func decideClick(
        _ classes: UserAgentClass, key: () -> KeptKey.Click, counted: Bool, head: Bool = false, now: Int64,
        tokenAllowed: @escaping @Sendable () -> Bool = { true }, facts: () throws -> (facts: ClickFacts, lsp: String?)
    ) throws -> ClickDecision {
        let bot = classes.bot != nil
        guard bot || !decider.mayDrawToken(classes.platform) else {
            let (facts, lsp) = try facts()
            metrics?.recordClickAnswer(bot: false, kept: false)
            return try decide(facts, lsp: lsp, counted: counted, head: head, now: now, tokenAllowed: tokenAllowed)
        }
        let snapshot = routes.published
        let (click, kept) = try key().withBytes {
            (key) throws -> (value: KeptClick, kept: Bool) in
            try keptClicks.answer(.click, key: key, serial: snapshot.serial) {
                () throws -> (value: KeptClick, size: Int?) in
                let (facts, lsp) = try facts()
                let click = try snapshot.lend { (resolver) throws -> KeptClick in
                    try decided(
                        facts, lsp: lsp, counted: counted, now: now, resolver: resolver, tokenAllowed: tokenAllowed)
                }
                let decision = click.decision
                let keepable = !decision.drawsToken && decision.clicked?.link?.canExpire != true
                return (click, keepable ? click.size : nil)
            }
        }
        recorded(click, counted: counted, now: now)
        metrics?.recordClickAnswer(bot: bot, kept: kept)
        return click.decision
    }

    /// `facts` (with `lsp`) decided, with the facts it counts under: an ambiguous person's `_lsp` choice. Keeps the
    /// token the decision used; when the shared store cannot keep it, the decision is made again without one
    /// (API.md §12).
    private func decided(
        _ facts: ClickFacts, lsp: String?, counted: Bool, head: Bool = false, now: Int64, resolver: borrowing Resolver,
        tokenAllowed: @escaping @Sendable () -> Bool = { true }
    ) throws -> KeptClick {
        var input = try self.input(
            facts, lsp: lsp, counted: counted, now: now, resolver: resolver, tokenAllowed: tokenAllowed)
        // Only when a GET would draw a token: the maker a GET would use answers, under the same conditions (for a
        // HEAD, `tokenAllowed` asks the client's budget without spending it).
        if head, input.token() != nil { input.standInToken = DeferredTokens.standIn }
        var decision = decider.decide(input, resolver: resolver)
        if decision.kind == .platformCheck { return KeptClick(facts: facts, decision: decision) }
        // The click counts under an ambiguous person's `_lsp` choice.
        var chosen = facts
        let platform = ClickDecider.platform(facts, lsp: lsp)
        if platform != facts.platform { chosen.platform = platform }
        if decision.tokenUsed, let token = decision.token, let resolution = decision.resolution {
            do {
                try keepToken(token, resolution, facts: chosen, now: now)
            } catch {
                // A shared store out of reach (§12), or a store that cannot write (a full disk): the click is
                // answered without a token, as when none may be made.
                storeFailed("keeping a deferred-link token", error)
                var withoutToken = input
                withoutToken.token = { nil }
                decision = decider.decide(withoutToken, resolver: resolver)
            }
        }
        return KeptClick(facts: chosen, decision: decision)
    }

    /// What the ``ClickDecider`` is given for `facts`: the route's clicks counted (this one counted first when it is
    /// a counted person click) and a maker of tokens.
    private func input(
        _ facts: ClickFacts, lsp: String?, counted: Bool, now: Int64, resolver: borrowing Resolver,
        tokenAllowed: @escaping @Sendable () -> Bool
    ) throws -> ClickDecider.Input {
        let needsCheck = ClickDecider.needsPlatformCheck(facts, lsp: lsp)
        let match = needsCheck ? nil : resolver.match(facts.location)
        var clicksCounted: Int?
        var resolution: Resolution??
        if let match {
            let route = resolver.table.routes[match.index]
            let counting = counted && facts.bot == nil
            var resolves = true
            if counting, route.link?.maxClicks != nil {
                // Step 3 comes before step 4 (§7): a click that does not resolve (a rule intercepts it, a loop, the
                // redirect limit) is answered as no match and takes none of the route's `maxClicks`; nor is the
                // store asked for the count, which that answer does not read.
                let resolved = ClickDecider.resolution(facts, lsp: lsp, match: match, resolver: resolver)
                resolution = .some(resolved)
                resolves = resolved != nil
            }
            if resolves {
                clicksCounted = try self.clicksCounted(route, counting: counting, now: now)
            }
        }
        // A token only while the store can keep it, for a link short enough (``LinksSettings/maxDeferredLinkBytes``),
        // while the store has room for one (``LinksSettings/maxDeferredTokens``), within the client's budget (asked
        // only when the decision would make one, and only then counted).
        var token: @Sendable () -> String? = { nil }
        if storeReachable() && facts.linkAsClicked.utf8.count <= LinksSettings.maxDeferredLinkBytes {
            token = { [self] in
                guard storedTokens.load(ordering: .relaxed) < settings.maxDeferredTokens, tokenAllowed() else {
                    return nil
                }
                return DeferredTokens.newToken()
            }
        }
        return ClickDecider.Input(
            facts: facts, lsp: lsp, now: now, counted: counted, clicksCounted: clicksCounted,
            match: needsCheck ? nil : .some(match), resolution: resolution, token: token)
    }

    /// Records a click decided or kept: counted (when `counted`; a platform check is not) and emitted, and put in
    /// the decisions' metric.
    private func recorded(_ click: KeptClick, counted: Bool, now: Int64) {
        let decision = click.decision
        if counted, decision.kind != .platformCheck {
            record(decision, facts: click.facts, kind: click.facts.bot == nil ? .click : .bot, now: now)
        }
        metrics?.recordLinkDecision(decision.kind.rawValue, platform: click.facts.bot?.rawValue ?? decision.platform)
    }

    func recordMetric(_ decision: String, platform: String) {
        metrics?.recordLinkDecision(decision, platform: platform)
    }

    /// The person clicks counted towards `route`'s `maxClicks`, for ``ClickDecider/isExpired(_:at:clicksCounted:)``;
    /// `nil` when it has no limit or is outside its window (nothing is counted then). With `counting`, this click is
    /// counted atomically in the store first: within the limit that gives `limit - 1` (room for this one), past
    /// it `limit`.
    func clicksCounted(_ route: Route, counting: Bool, now: Int64) throws -> Int? {
        guard let link = route.link, let limit = link.maxClicks, !link.isOutsideWindow(at: now) else { return nil }
        let pattern = route.pattern.description
        // While the shared store is unreachable nothing can be counted exactly: the route answers as expired
        // until it is back (API.md §12).
        guard storeReachable() else { return limit }
        do {
            if counting { return try store.countLimitedClick(pattern: pattern, limit: limit) ? limit - 1 : limit }
            return try store.limitedClicks(pattern: pattern)
        } catch {
            // Not counted (the shared store out of reach, or a store that cannot write): answered as expired.
            storeFailed("counting a click towards maxClicks", error)
            return limit
        }
    }

    /// Keeps a deferred-link token (API.md §9) in the store before the answer leaves.
    private func keepToken(_ token: String, _ resolution: Resolution, facts: ClickFacts, now: Int64) throws {
        // Counted before it is stored, so that a count of the store running meanwhile can miss it (for a moment) but
        // never count it twice.
        storedTokens.add(1, ordering: .relaxed)
        do {
            try store.saveDeferredToken(
                DeferredToken(
                    token: token, resolution: resolution.json(), platform: facts.platform.rawValue, clickedAt: now,
                    link: facts.linkAsClicked, expiresAt: now + Int64(settings.deferredTTL) * 1000))
        } catch {
            storedTokens.subtract(1, ordering: .relaxed)
            throw error
        }
    }

    /// Logs a store write a click went without (``storeFailures``); not a shared store out of reach, which the store
    /// follower reports once (API.md §12).
    private func storeFailed(_ what: String, _ error: any Error) {
        if let error = error as? LinkError, error == .storeUnreachable { return }
        storeFailures.log(
            logger, .error, "\(what) failed; the click was answered without it", metadata: ["error": "\(error)"])
    }

    /// The tokens the store keeps as last counted, plus those made here since (`linkserver_deferred_tokens`).
    var storedTokenCount: Int { storedTokens.load(ordering: .relaxed) }

    /// Deletes the expired deferred-link tokens and counts those left (at start, and once a minute).
    func purgeExpiredTokens() throws {
        _ = try store.purgeDeferredTokens(before: WallClock.milliseconds())
        try recountTokens()
    }

    /// Counts the tokens the store keeps, at start and after each purge (other instances of a shared store make
    /// and purge tokens too): until it is counted again, each token made here adds one. Says so in the log when the
    /// store is full, when clicks are answered without tokens.
    func recountTokens() throws {
        let count = try store.countDeferredTokens()
        storedTokens.store(count, ordering: .relaxed)
        if count >= settings.maxDeferredTokens {
            logger.warning(
                "the store is full of deferred-link tokens (links.maxDeferredTokens); clicks get none until some expire",
                metadata: ["tokens": "\(count)", "limit": "\(settings.maxDeferredTokens)"])
        }
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
        // While a shared store is unreachable no event can be stored: the click is answered without waiting on it
        // (API.md §12: clicks are still answered; its count waits in memory).
        guard storeReachable() else { return }
        // An event nobody can receive is not built (its `seq` is not needed: gaps are allowed).
        try? hub.emitIfHeard {
            let name = route.map { $0.name ?? $0.pattern.description } ?? "-"
            let extra: JSONValue = [
                "platform": .string(facts.platform.rawValue),
                "bot": facts.bot.map { .string($0.rawValue) } ?? .bool(false),
                "location": .string(facts.location.description),
                "target": decision.target.map(JSONValue.string) ?? .null,
                "decision": .string(decisionName ?? decision.kind.rawValue), "via": .string(facts.via),
            ]
            return (
                Location(segments: ["links", "clicks", name], query: Query([])), extra,
                UTCCalendar.rfc3339(milliseconds: now)
            )
        }
    }
}

/// A click decided, and kept (``LinkEngine/decideClick(_:key:counted:now:facts:)``): what was known of it (the
/// facts it counts under) and what it was decided to mean.
struct KeptClick: Sendable {
    let facts: ClickFacts
    let decision: ClickDecision

    /// About the bytes it holds: its page, its target, and 1 KiB for the resolution and the facts.
    var size: Int {
        (decision.pageBytes?.count ?? 0) + (decision.target?.utf8.count ?? 0) + 1024
    }
}
