import Foundation
import Synchronization
import Testing

@testable import LinkServer

/// The timer thread sleeps at most `longestSleep` between two calls (a second by default: the hub's sweep), and
/// calls first `firstAfter` after its start. The deferred tokens' purge asks for a minute of each: it was called
/// every second, a `DELETE` (and a count of the tokens) a second.
@Suite struct DeadlineTimerTests {
    @Test func aTimerWithALongSleepIsNotCalledEverySecond() throws {
        let calls = Atomic<Int>(0)
        let timer = DeadlineTimer(name: "test-long-sleep", longestSleep: .seconds(60)) { _ in
            calls.add(1, ordering: .relaxed)
            return nil
        }
        let delayed = Atomic<Int>(0)
        let later = DeadlineTimer(name: "test-first-after", firstAfter: .seconds(60)) { _ in
            delayed.add(1, ordering: .relaxed)
            return nil
        }
        let everySecond = Atomic<Int>(0)
        let sweeper = DeadlineTimer(name: "test-sweep") { _ in
            everySecond.add(1, ordering: .relaxed)
            return nil
        }
        timer.start()
        later.start()
        sweeper.start()
        #expect(waitUntil { calls.load(ordering: .relaxed) == 1 })
        // The default timer is called again within its second; the others are not, nor stopped late.
        #expect(waitUntil { everySecond.load(ordering: .relaxed) >= 3 })
        let started = ContinuousClock.now
        timer.stop()
        later.stop()
        sweeper.stop()
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(delayed.load(ordering: .relaxed) == 0)
    }
}
