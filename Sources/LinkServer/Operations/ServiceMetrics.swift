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
    private let series = Mutex<[SeriesKey: (Metrics.Counter, Metrics.Timer)]>([:])
    /// Every outcome's counter, made up front: recording one is a lookup in an immutable dictionary.
    private let outcomeCounters: [String: Metrics.Counter]
    private let gauges = Mutex<[(Metrics.Gauge, @Sendable () -> Int)]>([])
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
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(250),
            .seconds(1), .seconds(5), .seconds(30), .seconds(60),
        ]
        self.factory = factory
        linkCounters = ServiceMetrics.linkDecisions.flatMap { decision in
            ServiceMetrics.linkPlatforms.map { platform in
                Metrics.Counter(
                    label: "linkserver_link_decisions_total",
                    dimensions: [("decision", decision), ("platform", platform)], factory: factory)
            }
        }
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

    /// The label values of one request series.
    private struct SeriesKey: Hashable {
        var endpoint: String
        var method: String
        var status: Int
    }

    /// The methods that get a label of their own; every other one is counted as `other`.
    static let labelledMethods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]

    /// The `method` label of a request method (a few comparisons, cheaper than hashing it for a set).
    static func methodLabel(_ method: String) -> String {
        labelledMethods.contains(method) ? method : "other"
    }

    /// Counts a finished request and records its latency.
    func record(_ summary: RequestSummary) {
        let method = ServiceMetrics.methodLabel(summary.method)
        let key = SeriesKey(endpoint: summary.endpoint, method: method, status: summary.status)
        let (counter, timer) = series.withLock { series in
            if let found = series[key] { return found }
            let status = String(summary.status)
            let counter = Metrics.Counter(
                label: "linkserver_http_requests_total",
                dimensions: [("endpoint", summary.endpoint), ("method", method), ("status", status)],
                factory: factory)
            // One latency histogram per endpoint and method, shared by every status.
            let timer =
                series.first { $0.key.endpoint == key.endpoint && $0.key.method == key.method }?.value.1
                ?? Metrics.Timer(
                    label: "linkserver_http_request_duration_seconds",
                    dimensions: [("endpoint", summary.endpoint), ("method", method)], factory: factory)
            series[key] = (counter, timer)
            return (counter, timer)
        }
        counter.increment()
        let duration = summary.duration.components
        timer.recordNanoseconds(duration.seconds * 1_000_000_000 + duration.attoseconds / 1_000_000_000)
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
        return registry.emitToBuffer()
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
