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
    let decider: ClickDecider
    private let metrics: ServiceMetrics?

    init(
        settings: LinksSettings, routes: RouteRegistry, store: any Store, clicks: ClickLedger, bus: EventBus,
        logger: Logger, metrics: ServiceMetrics? = nil
    ) {
        self.metrics = metrics
        self.settings = settings
        self.routes = routes
        self.store = store
        self.clicks = clicks
        self.bus = bus
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
        let needsCheck = ClickDecider.needsPlatformCheck(facts, lsp: lsp)
        let route = needsCheck ? nil : resolver.match(facts.location).map { resolver.table.routes[$0.index] }
        let clicksCounted = try route.flatMap { (route) throws in
            try self.clicksCounted(route, counting: counted && facts.bot == nil, now: now)
        }
        let clicked: Route?? = needsCheck ? nil : .some(route)
        let decision = decider.decide(
            .init(
                facts: facts, lsp: lsp, now: now, counted: counted, clicksCounted: clicksCounted, clicked: clicked,
                token: DeferredTokens.newToken),
            resolver: resolver)
        metrics?.recordLinkDecision(decision.kind.rawValue, platform: facts.bot?.rawValue ?? decision.platform)
        guard decision.kind != .platformCheck else { return decision }
        // The click counts under an ambiguous person's `_lsp` choice: the facts are copied only to say so.
        let platform = ClickDecider.platform(facts, lsp: lsp)
        if platform == facts.platform {
            try keep(decision, facts: facts, counted: counted, now: now)
        } else {
            var chosen = facts
            chosen.platform = platform
            try keep(decision, facts: chosen, counted: counted, now: now)
        }
        return decision
    }

    /// Keeps the token `decision` used and records the click (when `counted`).
    private func keep(_ decision: ClickDecision, facts: ClickFacts, counted: Bool, now: Int64) throws {
        if decision.tokenUsed, let token = decision.token, let resolution = decision.resolution {
            try keepToken(token, resolution, facts: facts, now: now)
        }
        if counted { record(decision, facts: facts, kind: facts.bot == nil ? .click : .bot, now: now) }
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
        if counting { return try store.countLimitedClick(pattern: pattern, limit: limit) ? limit - 1 : limit }
        return try store.limitedClicks(pattern: pattern)
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
        guard bus.subscriptionCount > 0 else { return }
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
}
