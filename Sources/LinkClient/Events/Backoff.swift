/// Exponential back-off with full jitter, for retrying a long-poll after a network error.
///
/// The n-th consecutive failure waits a random duration in `0 ... min(maximum, initial × 2ⁿ)`, so many clients
/// cut off by one outage do not all come back at the same instant.
public struct Backoff: Sendable, Hashable {
    /// The ceiling of the first delay.
    public var initial: Duration
    /// The largest delay.
    public var maximum: Duration

    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before retry number `attempt` (0 for the first retry).
    public func delay(attempt: Int) -> Duration {
        let ceiling = min(maximum, initial * (1 << min(attempt, 30)))
        let milliseconds = ceiling.components.seconds * 1000 + ceiling.components.attoseconds / 1_000_000_000_000_000
        return .milliseconds(Int64.random(in: 0...max(0, milliseconds)))
    }
}
