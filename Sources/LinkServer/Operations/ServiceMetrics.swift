import LinkCore
import Prometheus
import Synchronization

/// The service's metrics (swift-prometheus's registry, Prometheus text exposition with `# HELP` and `# TYPE` for
/// every family), owned by one ``Application``.
///
/// Every label set is bounded: requests are labelled by endpoint template (never by raw path), by one of the
/// standard methods or `other` (any token is a method to HTTP, and a 405 needs no token), and by a status the
/// service itself produced; outcomes by the fixed list of error codes.
final class ServiceMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// The request latency histograms, by endpoint name and method, in the order they were made (rendered after
    /// the registry's metrics as the family ``latencyName``).
    private let histograms = Mutex<[(key: (endpoint: String, method: Int), histogram: LatencyHistogram)]>([])
    static let latencyName = "linkserver_http_request_duration_seconds"
    static let latencyBounds: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
        .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(250),
        .seconds(1), .seconds(5), .seconds(30), .seconds(60),
    ]
    /// Every outcome's counter, made up front: recording one is a lookup in an immutable dictionary.
    private let outcomeCounters: [String: Counter]
    private let gauges = Mutex<[(Gauge, @Sendable () -> Int)]>([])
    /// `/v1/resolve` requests answered from the answers kept, and worked out (``KeptAnswers``).
    private let keptAnswers: Counter
    private let workedAnswers: Counter
    /// Clicks on the links listener answered from the decisions kept, and decided, of bots and of people
    /// (``LinkEngine/decideClick(_:key:counted:now:facts:)``).
    private let keptBotClicks: Counter
    private let decidedBotClicks: Counter
    private let keptPersonClicks: Counter
    private let decidedPersonClicks: Counter
    /// Slot outcomes, made up front like the resolve outcomes.
    private let slotCounters: [String: Counter]
    /// Link decisions by decision and platform (a bot's kind for bots), made up front: both lists are closed. Row
    /// by row in the order of ``linkDecisions``, each row in the order of ``linkPlatforms``; found by comparing a
    /// few short strings, cheaper than hashing two for nested dictionaries.
    private let linkCounters: [Counter]
    static let linkDecisions = [
        "redirect", "preview", "landing", "intent", "platform_check", "not_found", "expired", "open",
    ]
    static let linkPlatforms = ["ios", "android", "desktop", "ambiguous", "preview", "crawler"]

    /// Each family's `# HELP` text. The registry wants one text per name (it stops the process on a second one), so
    /// every counter and gauge is made with the text kept here.
    static let help: [String: String] = [
        "linkserver_http_requests_total": "HTTP requests answered, by endpoint template, method and status.",
        latencyName:
            "Time from a request's head to its answer handed to libmicrohttpd, by endpoint template and method.",
        "linkserver_resolve_outcomes_total":
            "Resolutions by outcome: resolved, redirected, or the error code that ended them.",
        "linkserver_resolve_answers_total": "GET /v1/resolve answers taken from the answers kept, or resolved.",
        "linkserver_click_answers_total":
            "Clicks on the links listener answered from the decisions kept, or decided, by bots and people.",
        "linkserver_link_decisions_total":
            "Decisions of the links listener and app opens, by decision and platform (a bot's kind for bots).",
        "linkserver_slot_changes_total": "Presentation slot changes by outcome (API.md section 11).",
        "linkserver_routes": "Routes registered, from the routes file and the API.",
        "linkserver_subscriptions_open": "Event subscriptions open.",
        "linkserver_polls_waiting": "Long-polls waiting for events.",
        "linkserver_resources": "Resources stored.",
        "linkserver_slots": "Presentation slots with something presented.",
        "linkserver_deferred_tokens": "Deferred-link tokens kept in the store (links.maxDeferredTokens bounds them).",
        "linkserver_build_info": "Always 1; its version label is the running build's (LinkServer --version).",
    ]

    /// The counter of `name` with `labels` in `registry`, made with the family's help text.
    private static func counter(
        _ registry: PrometheusCollectorRegistry, _ name: String, _ labels: [(String, String)]
    ) -> Counter {
        registry.makeCounter(descriptor: descriptor(name), labels: labels)
    }

    /// The family `name` (whole, units included) with its help text.
    private static func descriptor(_ name: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help[name] ?? "")
    }

    init() {
        let registry = registry
        func counter(_ name: String, _ labels: [(String, String)]) -> Counter {
            ServiceMetrics.counter(registry, name, labels)
        }
        linkCounters = ServiceMetrics.linkDecisions.flatMap { decision in
            ServiceMetrics.linkPlatforms.map { platform in
                counter("linkserver_link_decisions_total", [("decision", decision), ("platform", platform)])
            }
        }
        keptAnswers = counter("linkserver_resolve_answers_total", [("source", "kept")])
        workedAnswers = counter("linkserver_resolve_answers_total", [("source", "resolved")])
        func clickAnswers(_ clicker: String, _ source: String) -> Counter {
            counter("linkserver_click_answers_total", [("clicker", clicker), ("source", source)])
        }
        keptBotClicks = clickAnswers("bot", "kept")
        decidedBotClicks = clickAnswers("bot", "decided")
        keptPersonClicks = clickAnswers("person", "kept")
        decidedPersonClicks = clickAnswers("person", "decided")
        let slotOutcomes = ["presented", "replaced", "updated", "rejected", "dismissed", "not_current", "expired"]
        slotCounters = Dictionary(
            uniqueKeysWithValues: slotOutcomes.map { outcome in
                (outcome, counter("linkserver_slot_changes_total", [("outcome", outcome)]))
            })
        registry.makeGauge(
            descriptor: ServiceMetrics.descriptor("linkserver_build_info"),
            labels: [
                ("version", BuildInfo.version)
            ]
        ).set(to: 1)
        let outcomes = ["resolved", "redirected"] + LinkError.Code.known.map(\.rawValue)
        outcomeCounters = Dictionary(
            uniqueKeysWithValues: outcomes.map { outcome in
                (outcome, counter("linkserver_resolve_outcomes_total", [("outcome", outcome)]))
            })
    }

    /// The `method` label values: the standard methods, then `other` for every other one.
    static let methodLabels = RequestLine.standardMethods + ["other"]

    /// The position of a request method's label in ``methodLabels`` (a few comparisons, cheaper than hashing it).
    static func methodLabel(_ method: String) -> Int {
        methodLabels.firstIndex(of: method) ?? methodLabels.count - 1
    }

    /// Counts a finished request and records its latency, in the series its endpoint label keeps.
    func record(_ summary: RequestSummary) {
        let method = ServiceMetrics.methodLabel(summary.method)
        let owner = ObjectIdentifier(self)
        let found = summary.endpoint.series.withLock { series in
            series.first { $0.records(owner: owner, method: method, status: summary.status) }
        }
        let series = found ?? makeSeries(summary.endpoint, method: method, status: summary.status)
        series.requests.increment()
        series.latency.record(summary.duration)
    }

    /// The series of a label, method and status not recorded yet (once per combination).
    private func makeSeries(_ endpoint: EndpointLabel, method: Int, status: Int) -> RequestSeries {
        let methodName = ServiceMetrics.methodLabels[method]
        // Two labels may share a name (the registry hands out one counter per name and labels, and `histograms`
        // one histogram per endpoint and method): their series are the same ones.
        let requests = ServiceMetrics.counter(
            registry, "linkserver_http_requests_total",
            [("endpoint", endpoint.name), ("method", methodName), ("status", String(status))])
        let latency = histograms.withLock { histograms in
            let labels = [("endpoint", endpoint.name), ("method", methodName)]
            if let same = histograms.first(where: { $0.key.endpoint == endpoint.name && $0.key.method == method }) {
                return same.histogram
            }
            let histogram = LatencyHistogram(bounds: ServiceMetrics.latencyBounds, labels: labels)
            histograms.append(((endpoint.name, method), histogram))
            return histogram
        }
        let series = RequestSeries(
            owner: ObjectIdentifier(self), method: method, status: status, requests: requests, latency: latency)
        return endpoint.series.withLock { list in
            // Another thread may have made it meanwhile: keep one.
            if let made = list.first(where: { $0.records(owner: series.owner, method: method, status: status) }) {
                return made
            }
            list.append(series)
            return series
        }
    }

    /// Counts one `/v1/resolve` request answered from the answers kept (`kept`) or worked out.
    func recordResolveAnswer(kept: Bool) {
        (kept ? keptAnswers : workedAnswers).increment()
    }

    /// Counts a click on the links listener, a bot's or a person's, answered from the decisions kept or decided.
    func recordClickAnswer(bot: Bool, kept: Bool) {
        (bot ? (kept ? keptBotClicks : decidedBotClicks) : (kept ? keptPersonClicks : decidedPersonClicks)).increment()
    }

    /// Counts one resolution outcome: `resolved`, `redirected`, or the error code that ended it.
    func recordOutcome(_ outcome: String) {
        outcomeCounters[outcome]?.increment()
    }

    /// A gauge whose value is read from `value` at every scrape.
    func gauge(_ name: String, _ value: @escaping @Sendable () -> Int) {
        let gauge = registry.makeGauge(descriptor: ServiceMetrics.descriptor(name), labels: [])
        gauges.withLock { $0.append((gauge, value)) }
    }

    /// The Prometheus text exposition of every metric.
    func render() -> [UInt8] {
        for (gauge, value) in gauges.withLock({ $0 }) { gauge.set(Int64(value())) }
        var text = ""
        let histograms = histograms.withLock { $0 }
        if !histograms.isEmpty {
            let name = ServiceMetrics.latencyName
            text = "# HELP \(name) \(ServiceMetrics.help[name] ?? "")\n# TYPE \(name) histogram\n"
            for (_, histogram) in histograms { histogram.render(name: ServiceMetrics.latencyName, into: &text) }
        }
        ProcessMetrics.render(into: &text)
        return registry.emitToBuffer() + Array(text.utf8)
    }

    /// Counts one slot outcome (API.md §11): `presented`, `replaced`, `updated`, `rejected`, `dismissed`,
    /// `not_current` or `expired`.
    func recordPresent(_ change: SlotRule.Change) {
        let outcome: String
        switch change {
        case .presented(_, let replaced): outcome = replaced == nil ? "presented" : "replaced"
        case .updated: outcome = "updated"
        case .rejected: outcome = "rejected"
        case .dismissed: outcome = "dismissed"
        case .notCurrent: outcome = "not_current"
        case .expired: outcome = "expired"
        }
        slotCounters[outcome]?.increment()
    }

    /// Counts a decision of the links listener or an app open.
    func recordLinkDecision(_ decision: String, platform: String) {
        guard let row = ServiceMetrics.linkDecisions.firstIndex(of: decision),
            let column = ServiceMetrics.linkPlatforms.firstIndex(of: platform)
        else { return }
        linkCounters[row * ServiceMetrics.linkPlatforms.count + column].increment()
    }
}
