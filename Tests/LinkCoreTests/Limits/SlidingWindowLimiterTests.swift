import Testing

@testable import LinkCore

@Suite struct SlidingWindowLimiterTests {
    @Test func admitsTheLimitPerWindowPerClient() {
        var limiter = SlidingWindowLimiter(limit: 3)
        for t in [0, 10, 20] as [Int64] { #expect(limiter.admit("a", now: t) == .admitted) }
        #expect(limiter.admit("a", now: 30) == .limited(retryAfter: 60))
        #expect(limiter.admit("b", now: 30) == .admitted)
        // The window slides: the first request leaves it at 60 000 ms.
        #expect(limiter.admit("a", now: 59_999) == .limited(retryAfter: 1))
        #expect(limiter.admit("a", now: 60_000) == .admitted)
        #expect(limiter.admit("a", now: 60_001) == .limited(retryAfter: 1))
        #expect(limiter.admit("a", now: 60_010) == .admitted)
    }

    /// `wouldAdmit` says what `admit` would answer, spending nothing.
    @Test func askingSpendsNothing() {
        var limiter = SlidingWindowLimiter(limit: 2)
        #expect(limiter.wouldAdmit("a", now: 0))
        #expect(limiter.admit("a", now: 0) == .admitted)
        for _ in 0..<5 { #expect(limiter.wouldAdmit("a", now: 10)) }
        #expect(limiter.admit("a", now: 10) == .admitted)
        #expect(!limiter.wouldAdmit("a", now: 20))
        #expect(limiter.wouldAdmit("a", now: 60_000))  // the first left the window
        #expect(!SlidingWindowLimiter(limit: 0).wouldAdmit("b", now: 0))
    }

    @Test func refusedRequestsDoNotSpendTheBudget() {
        var limiter = SlidingWindowLimiter(limit: 1)
        #expect(limiter.admit("a", now: 0) == .admitted)
        for t in stride(from: 1, to: 60_000, by: 5000) { #expect(limiter.admit("a", now: Int64(t)) != .admitted) }
        #expect(limiter.admit("a", now: 60_000) == .admitted)
    }

    /// A limit raised far (a proxy's whole site behind one address, a soak) keeps the sliding window exact: the
    /// times leave from the front as the window slides, however many there are.
    @Test func aLargeLimitSlidesExactly() {
        var limiter = SlidingWindowLimiter(limit: 100_000)
        for t in 0..<100_000 { #expect(limiter.admit("a", now: Int64(t) / 2) == .admitted) }
        // 100,000 admitted over the first 50 s: full until the first of them leaves, at 60 s.
        #expect(limiter.admit("a", now: 59_999) == .limited(retryAfter: 1))
        #expect(limiter.admit("a", now: 60_000) == .admitted)
        #expect(limiter.admit("a", now: 60_000) == .admitted)
        #expect(limiter.admit("a", now: 60_000) == .limited(retryAfter: 1))
        // At 110 s the first 100,000 have left the window and the two of 60 s are in it: room for 99,998, then full
        // until those two leave, 10 s later.
        for _ in 0..<99_998 { #expect(limiter.admit("a", now: 110_000) == .admitted) }
        #expect(limiter.admit("a", now: 110_000) == .limited(retryAfter: 10))
    }

    @Test func idleClientsAreForgotten() {
        var limiter = SlidingWindowLimiter(limit: 2)
        for client in 0..<1000 { _ = limiter.admit("c\(client)", now: Int64(client)) }
        #expect(limiter.clientCount == 1000)
        limiter.sweep(now: 60_500)
        #expect(limiter.clientCount == 499)
        limiter.sweep(now: 61_000)
        #expect(limiter.clientCount == 0)
    }

    /// API.md §7: addresses are kept for the window only. Admitting forgets the idle clients once a window, so a
    /// limiter never asked to sweep still lets them go.
    @Test func admittingForgetsIdleClientsOnceAWindow() {
        var limiter = SlidingWindowLimiter(limit: 2)
        for client in 0..<100 { _ = limiter.admit("c\(client)", now: Int64(client)) }
        _ = limiter.admit("late", now: 59_999)
        #expect(limiter.clientCount == 101)
        // A window after the last pass: c0…c50, idle for a whole window, go.
        _ = limiter.admit("later", now: 60_050)
        #expect(limiter.clientCount == 51)
        // The next pass is a window later.
        _ = limiter.admit("next", now: 120_049)
        #expect(limiter.clientCount == 52)
        // Then all but the clients of the last window go: "next" and "last".
        _ = limiter.admit("last", now: 120_050)
        #expect(limiter.clientCount == 2)
    }
}
