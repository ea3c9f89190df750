import Prometheus
import Synchronization

/// What served a request, for the access log and the metrics: an endpoint template (`/v1/routes/{name}`) or a name
/// such as `unmatched` or `links:click`.
///
/// A dispatcher makes its labels once, when it is built, and answers each request with one of them. The label keeps
/// the metric series recorded under it, so a finished request finds its counter and latency histogram by comparing
/// a few integers, not by hashing its endpoint, method and status into a dictionary of every series.
final class EndpointLabel: Sendable {
    let name: String
    /// The series recorded under this label, made on first use; a handful per label (one per method and status
    /// seen). Only ``ServiceMetrics`` reads and writes them.
    let series = Mutex<[RequestSeries]>([])

    init(_ name: String) {
        self.name = name
    }
}

/// One request series of an ``EndpointLabel``: the requests counted by method and status, and the latency histogram
/// shared by every status of the method.
struct RequestSeries: Sendable {
    /// The ``ServiceMetrics`` that made it (a label records into one; tests may build several services).
    var owner: ObjectIdentifier
    /// The position of the method label in ``ServiceMetrics/methodLabels``.
    var method: Int
    var status: Int
    var requests: Counter
    var latency: LatencyHistogram

    /// Whether this is the series of `owner` for `method` and `status`.
    func records(owner: ObjectIdentifier, method: Int, status: Int) -> Bool {
        self.method == method && self.status == status && self.owner == owner
    }
}
