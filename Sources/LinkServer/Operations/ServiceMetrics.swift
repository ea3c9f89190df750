import LinkCore
import Metrics
import Prometheus
import Synchronization

/// The service's metrics (swift-metrics API, Prometheus text exposition), owned by one ``Application``.
///
/// Every label set is bounded: requests are labelled by endpoint template (never by raw path), by one of the
/// standard methods or `other` (any token is a method to HTTP, and a 405 needs no token), and by a status the
/// service itself produced; outcomes by the fixed list of error codes.
final class ServiceMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
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
    private let outcomeCounters: [String: Metrics.Counter]
    private let gauges = Mutex<[(Metrics.Gauge, @Sendable () -> Int)]>([])
    /// `/v1/resolve` requests answered from the answers kept, and worked out (``KeptAnswers``).
    private let keptAnswers: Metrics.Counter
    private let workedAnswers: Metrics.Counter
    /// Clicks on the links listener answered from the decisions kept, and decided, of bots and of people
    /// (``LinkEngine/decideClick(_:key:counted:now:facts:)``).
    private let keptBotClicks: Metrics.Counter
    private let decidedBotClicks: Metrics.Counter
    private let keptPersonClicks: Metrics.Counter
    private let decidedPersonClicks: Metrics.Counter
    /// Slot outcomes, made up front like the resolve outcomes.
    private let slotCounters: [String: Metrics.Counter]
    /// Link decisions by decision and platform (a bot's kind for bots), made up front: both lists are closed. Row
    /// by row in the order of ``linkDecisions``, each row in the order of ``linkPlatforms``; found by comparing a
    /// few short strings, cheaper than hashing two for nested dictionaries.
    private let linkCounters: [Metrics.Counter]
    static let linkDecisions = [
        "redirect", "preview", "landing", "intent", "platform_check", "not_found", "expired", "open",
    ]
    static let linkPlatforms = ["ios", "android", "desktop", "ambiguous", "preview", "crawler"]

    init() {
        let factory = PrometheusMetricsFactory(registry: registry)
        self.factory = factory
        linkCounters = ServiceMetrics.linkDecisions.flatMap { decision in
            ServiceMetrics.linkPlatforms.map { platform in
                Metrics.Counter(
                    label: "linkserver_link_decisions_total",
                    dimensions: [("decision", decision), ("platform", platform)], factory: factory)
            }
        }
        keptAnswers = Metrics.Counter(
            label: "linkserver_resolve_answers_total", dimensions: [("source", "kept")], factory: factory)
        workedAnswers = Metrics.Counter(
            label: "linkserver_resolve_answers_total", dimensions: [("source", "resolved")], factory: factory)
        func clickAnswers(_ clicker: String, _ source: String) -> Metrics.Counter {
            Metrics.Counter(
                label: "linkserver_click_answers_total", dimensions: [("clicker", clicker), ("source", source)],
                factory: factory)
        }
        keptBotClicks = clickAnswers("bot", "kept")
        decidedBotClicks = clickAnswers("bot", "decided")
        keptPersonClicks = clickAnswers("person", "kept")
        decidedPersonClicks = clickAnswers("person", "decided")
        let outcomes = ["resolved", "redirected"] + LinkError.Code.known.map(\.rawValue)
        slotCounters = Dictionary(
            uniqueKeysWithValues: [
                "presented", "replaced", "updated", "rejected", "dismissed", "not_current", "expired",
            ]
            .map { outcome in
                (
                    outcome,
                    Metrics.Counter(
                        label: "linkserver_slot_changes_total", dimensions: [("outcome", outcome)],
                        factory: factory)
                )
            })
        outcomeCounters = Dictionary(
            uniqueKeysWithValues: outcomes.map { outcome in
                (
                    outcome,
                    Metrics.Counter(
                        label: "linkserver_resolve_outcomes_total", dimensions: [("outcome", outcome)], factory: factory
                    )
                )
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
        // Two labels may share a name (the factory hands out one counter per name and dimensions, and
        // `histograms` one histogram per endpoint and method): their series are the same ones.
        let requests = Metrics.Counter(
            label: "linkserver_http_requests_total",
            dimensions: [("endpoint", endpoint.name), ("method", methodName), ("status", String(status))],
            factory: factory)
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
        let gauge = Metrics.Gauge(label: name, factory: factory)
        gauges.withLock { $0.append((gauge, value)) }
    }

    /// The Prometheus text exposition of every metric.
    func render() -> [UInt8] {
        for (gauge, value) in gauges.withLock({ $0 }) { gauge.record(value()) }
        var text = ""
        let histograms = histograms.withLock { $0 }
        if !histograms.isEmpty {
            text = "# TYPE \(ServiceMetrics.latencyName) histogram\n"
            for (_, histogram) in histograms { histogram.render(name: ServiceMetrics.latencyName, into: &text) }
        }
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
