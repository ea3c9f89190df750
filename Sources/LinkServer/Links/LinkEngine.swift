import LinkCore
import Logging

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
    /// Bots' clicks decided before, by their requests' bytes (``decideBotClick(_:counted:now:facts:)``).
    private let botClicks = KeptAnswers<KeptClick>()
    private let metrics: ServiceMetrics?
    /// Whether the store can be written now (a shared store that stopped answering cannot, API.md §12).
    private let storeReachable: @Sendable () -> Bool

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
    func decide(_ facts: ClickFacts, lsp: String?, counted: Bool, now: Int64) throws -> ClickDecision {
        try routes.withResolver { resolver in
            try decide(facts, lsp: lsp, counted: counted, now: now, resolver: resolver)
        }
    }

    private func decide(
        _ facts: ClickFacts, lsp: String?, counted: Bool, now: Int64, resolver: borrowing Resolver
    ) throws -> ClickDecision {
        let input = try self.input(facts, lsp: lsp, counted: counted, now: now, resolver: resolver)
        var decision = decider.decide(input, resolver: resolver)
        if decision.kind != .platformCheck {
            // The click counts under an ambiguous person's `_lsp` choice: the facts are copied only to say so.
            let platform = ClickDecider.platform(facts, lsp: lsp)
            if platform == facts.platform {
                decision = try keep(decision, input, resolver: resolver, facts: facts, counted: counted, now: now)
            } else {
                var chosen = facts
                chosen.platform = platform
                decision = try keep(decision, input, resolver: resolver, facts: chosen, counted: counted, now: now)
            }
        }
        metrics?.recordLinkDecision(decision.kind.rawValue, platform: facts.bot?.rawValue ?? decision.platform)
        return decision
    }

    /// What the ``ClickDecider`` is given for `facts`: the route's clicks counted (this one counted first when it is
    /// a counted person click) and a maker of tokens.
    private func input(
        _ facts: ClickFacts, lsp: String?, counted: Bool, now: Int64, resolver: borrowing Resolver
    ) throws -> ClickDecider.Input {
        let needsCheck = ClickDecider.needsPlatformCheck(facts, lsp: lsp)
        let match = needsCheck ? nil : resolver.match(facts.location)
        let route = match.map { resolver.table.routes[$0.index] }
        let clicksCounted = try route.flatMap { (route) throws in
            try self.clicksCounted(route, counting: counted && facts.bot == nil, now: now)
        }
        return ClickDecider.Input(
            facts: facts, lsp: lsp, now: now, counted: counted, clicksCounted: clicksCounted,
            match: needsCheck ? nil : .some(match),
            token: storeReachable() ? DeferredTokens.newToken : { nil })
    }

    /// A bot's click (its facts from `facts`, whose ``ClickFacts/bot`` is set), as ``decide(_:lsp:counted:now:)``
    /// decides it, kept by `key` (``KeptKey/click(_:)``) for the route snapshot it was decided on: a bot's decision
    /// reads the request's target and headers and the route table, nothing else, unless the clicked route's link
    /// can expire (then it reads the time and the clicks counted, and it is decided every time). A bot draws no
    /// token and counts towards no `maxClicks`; its click is counted (when `counted`) and its metric recorded every
    /// time. Chat apps and crawlers fetch the same links again and again: the second time, the location is not
    /// parsed, nor resolved, nor its preview page written.
    func decideBotClick(
        _ key: [UInt8], counted: Bool, now: Int64, facts: () throws -> ClickFacts
    ) throws -> KeptClick {
        let snapshot = routes.published
        let (click, kept) = try key.withUnsafeBytes {
            (key) throws -> (value: KeptClick, kept: Bool) in
            try botClicks.answer(.click, key: key, serial: snapshot.serial) {
                () throws -> (value: KeptClick, size: Int?) in
                let facts = try facts()
                assert(facts.bot != nil, "a bot's click")
                let decision = try snapshot.lend { (resolver) throws -> ClickDecision in
                    decider.decide(
                        try input(facts, lsp: nil, counted: counted, now: now, resolver: resolver), resolver: resolver)
                }
                let click = KeptClick(facts: facts, decision: decision)
                return (click, decision.clicked?.link?.canExpire == true ? nil : click.size)
            }
        }
        if counted { record(click.decision, facts: click.facts, kind: .bot, now: now) }
        metrics?.recordLinkDecision(
            click.decision.kind.rawValue, platform: click.facts.bot?.rawValue ?? click.decision.platform)
        metrics?.recordBotClickAnswer(kept: kept)
        return click
    }

    /// Keeps the token `decision` used and records the click (when `counted`); answers the decision as it leaves.
    /// When the shared store cannot keep the token, the decision is made again without one (API.md §12).
    private func keep(
        _ decision: ClickDecision, _ input: ClickDecider.Input, resolver: borrowing Resolver, facts: ClickFacts,
        counted: Bool,
        now: Int64
    ) throws -> ClickDecision {
        var decision = decision
        if decision.tokenUsed, let token = decision.token, let resolution = decision.resolution {
            do {
                try keepToken(token, resolution, facts: facts, now: now)
            } catch let error as LinkError where error.code == .unavailable {
                var withoutToken = input
                withoutToken.token = { nil }
                decision = decider.decide(withoutToken, resolver: resolver)
            }
        }
        if counted { record(decision, facts: facts, kind: facts.bot == nil ? .click : .bot, now: now) }
        return decision
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
        } catch let error as LinkError where error.code == .unavailable {
            return limit
        }
    }

    /// Keeps a deferred-link token (API.md §9) in the store before the answer leaves.
    private func keepToken(_ token: String, _ resolution: Resolution, facts: ClickFacts, now: Int64) throws {
        try store.saveDeferredToken(
            DeferredToken(
                token: token, resolution: resolution.json(), platform: facts.platform.rawValue, clickedAt: now,
                link: facts.linkAsClicked, expiresAt: now + Int64(settings.deferredTTL) * 1000))
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
        // An event nobody can receive is not built (its `seq` is not needed: gaps are allowed).
        guard hub.hasSubscriptions else { return }
        let extra: JSONValue = [
            "platform": .string(facts.platform.rawValue), "bot": facts.bot.map { .string($0.rawValue) } ?? .bool(false),
            "location": .string(facts.location.description), "target": decision.target.map(JSONValue.string) ?? .null,
            "decision": .string(decisionName ?? decision.kind.rawValue), "via": .string(facts.via),
        ]
        let name = route.map { $0.name ?? $0.pattern.description } ?? "-"
        _ = try? hub.emit(
            Location(segments: ["links", "clicks", name], query: Query([])), extra: extra,
            time: UTCCalendar.rfc3339(milliseconds: now))
    }
}

/// A bot's click kept (``LinkEngine/decideBotClick(_:counted:now:facts:)``): what was known of it and what it was
/// decided to mean.
struct KeptClick: Sendable {
    let facts: ClickFacts
    let decision: ClickDecision

    /// About the bytes it holds: its page, its target, and 1 KiB for the resolution and the facts.
    var size: Int {
        (decision.pageBytes?.count ?? 0) + (decision.target?.utf8.count ?? 0) + 1024
    }
}
