import Synchronization

/// A request-latency histogram in the Prometheus text format, recorded on every request.
///
/// swift-prometheus's `Histogram<Duration>` compares the value with every bucket bound as a 128-bit `Duration` and
/// increments each bucket it falls into, under a `pthread` mutex: about 700 instructions a request. This one counts
/// a duration into the one bucket it falls in (made cumulative when rendered) under a `Mutex`, never splitting it
/// into seconds and attoseconds on the way (two 128-bit divisions, as costly as the rest), and renders the same
/// lines (`_bucket{…,le="…"}`, `_sum`, `_count`) with the same number formatting.
final class LatencyHistogram: Sendable {
    /// The upper bounds of the buckets, ascending.
    let bounds: [Duration]
    /// `name="value",…` of this histogram's labels, escaped, with no braces.
    let labels: String

    private struct State {
        /// Per bucket, not cumulative; one more than ``bounds`` for `+Inf`.
        var counts: [Int]
        var sum = Duration.zero
        var count = 0
    }
    private let state: Mutex<State>

    init(bounds: [Duration], labels: [(String, String)]) {
        self.bounds = bounds
        self.labels = labels.map { "\($0.0)=\"\(LatencyHistogram.escapedLabelValue($0.1))\"" }.joined(separator: ",")
        state = Mutex(State(counts: Array(repeating: 0, count: bounds.count + 1)))
    }

    /// Records one request's latency.
    func record(_ duration: Duration) {
        // Below the first bounds for most requests: a linear search from the front is the short one.
        var bucket = 0
        while bucket < bounds.count, bounds[bucket] < duration { bucket += 1 }
        state.withLock { state in
            state.counts[bucket] += 1
            state.sum += duration
            state.count += 1
        }
    }

    /// Appends this histogram's lines under `name` (the family's `# TYPE` line is the caller's).
    func render(name: String, into text: inout String) {
        let state = state.withLock { $0 }
        var cumulative = 0
        for (index, bound) in bounds.enumerated() {
            cumulative += state.counts[index]
            text += "\(name)_bucket{\(labels),le=\"\(LatencyHistogram.seconds(bound))\"} \(cumulative)\n"
        }
        text += "\(name)_bucket{\(labels),le=\"+Inf\"} \(state.count)\n"
        text += "\(name)_sum{\(labels)} \(LatencyHistogram.seconds(state.sum))\n"
        text += "\(name)_count{\(labels)} \(state.count)\n"
    }

    /// Seconds as swift-prometheus writes a `Duration`: the whole seconds, a point, and the fraction without its
    /// trailing zeros, at least one digit (`0.00005`, `1.0`, `0.000123456`), to the nanosecond.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        var fraction = String(attoseconds / 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.count > 1, fraction.last == "0" { fraction.removeLast() }
        return "\(seconds).\(fraction)"
    }

    /// A label value with backslash, double quote and line feed escaped (the text format's three escapes).
    static func escapedLabelValue(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
