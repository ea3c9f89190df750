/// Exponential back-off with full jitter, for retrying a long-poll after a network error.
///
/// The n-th consecutive failure waits a random duration in `0 ... min(maximum, initial × 2ⁿ)`, so many clients
/// cut off by one outage do not all come back at the same instant. Durations are in seconds (`Double`), so the
/// type works on every platform the client supports (iOS 15, macOS 12: before `Duration`).
public struct Backoff: Sendable, Hashable {
    /// The ceiling of the first delay, in seconds.
    public var initial: Double
    /// The largest delay, in seconds.
    public var maximum: Double

    public init(initial: Double = 0.25, maximum: Double = 30) {
        self.initial = initial
        self.maximum = maximum
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public init(initial: Duration, maximum: Duration) {
        self.init(initial: Backoff.seconds(initial), maximum: Backoff.seconds(maximum))
    }

    /// The delay before retry number `attempt` (0 for the first retry), in seconds.
    public func delay(attempt: Int) -> Double {
        let ceiling = min(maximum, initial * Double(1 << min(attempt, 30)))
        return Double.random(in: 0...max(0, ceiling))
    }

    /// The delay before retry number `attempt` of an answer that said to wait `retryAfter` seconds first (a 503's
    /// `Retry-After`): that wait, at most ``maximum`` (a proxy's hour is not waited), and the jittered delay on top,
    /// so that clients told the same `Retry-After` do not all come back at once.
    func delay(attempt: Int, after retryAfter: Double) -> Double {
        min(max(0, retryAfter), maximum) + delay(attempt: attempt)
    }

    /// `seconds` as a sleep's nanoseconds, at most a day: a count past `UInt64` would trap.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(min(max(0, seconds), 86_400) * 1_000_000_000)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
