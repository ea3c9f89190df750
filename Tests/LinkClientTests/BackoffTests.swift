import Testing

@testable import LinkClient

/// Retry delays: full jitter under an exponential ceiling capped at `maximum`, in seconds.
@Suite struct BackoffTests {
    @Test func delaysStayUnderTheDoublingCeilingAndTheMaximum() {
        let backoff = Backoff(initial: 0.25, maximum: 2)
        for attempt in 0..<40 {
            let ceiling = min(2, 0.25 * Double(1 << min(attempt, 30)))
            for _ in 0..<50 {
                let delay = backoff.delay(attempt: attempt)
                #expect(delay >= 0 && delay <= ceiling)
            }
        }
        // Jitter: not every delay of a late attempt is the same.
        #expect(Set((0..<50).map { _ in backoff.delay(attempt: 10) }).count > 1)
    }

    /// A `Retry-After` is waited, at most the maximum, with the jitter on top; no sleep can trap.
    @Test func aRetryAfterIsWaitedWithTheJitterOnTopAndBounded() {
        let backoff = Backoff(initial: 0.25, maximum: 30)
        for _ in 0..<50 {
            let delay = backoff.delay(attempt: 0, after: 1)
            #expect(delay >= 1 && delay <= 1.25)
            let long = backoff.delay(attempt: 0, after: 3600)
            #expect(long >= 30 && long <= 30.25)
        }
        #expect(Set((0..<50).map { _ in backoff.delay(attempt: 0, after: 1) }).count > 1)
        #expect(Backoff.nanoseconds(1.5) == 1_500_000_000)
        #expect(Backoff.nanoseconds(18_446_744_074) == 86_400_000_000_000)
        #expect(Backoff.nanoseconds(-1) == 0)
    }

    @Test func durationsConvertToSeconds() {
        let backoff = Backoff(initial: .milliseconds(50), maximum: .seconds(3))
        #expect(backoff == Backoff(initial: 0.05, maximum: 3))
    }
}
