import Dispatch
import Foundation
import LinkCore
import Synchronization

/// A thread that runs `fire` at the deadlines it asks for, and at least once every `longestSleep` (a second unless
/// told otherwise).
///
/// The event bus uses one to answer long-polls whose wait has elapsed and to expire idle subscriptions
/// (libmicrohttpd never times out a suspended connection on its own, so without it a quiet poll would hang);
/// the slot board uses one to end presentations on time without any request.
final class DeadlineTimer: Sendable {
    private let name: String
    /// Does what is due at the given instant and answers the next deadline, if any.
    private let fire: @Sendable (ContinuousClock.Instant) -> ContinuousClock.Instant?
    private let wake = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(true)
    /// The instant the thread sleeps until, as nanoseconds of `ContinuousClock` since `origin`.
    private let sleepingUntil = Atomic<Int64>(0)
    private let origin = ContinuousClock.now
    private let finished = DispatchSemaphore(value: 0)
    /// Longest sleep by default, so idle subscriptions are swept about once a second.
    static let sweepInterval = Duration.seconds(1)
    /// The longest the thread sleeps between two calls of `fire`.
    private let longestSleep: Duration
    /// How long after ``start()`` `fire` is called first (at once when zero).
    private let firstAfter: Duration

    init(
        name: String, longestSleep: Duration = DeadlineTimer.sweepInterval, firstAfter: Duration = .zero,
        fire: @escaping @Sendable (ContinuousClock.Instant) -> ContinuousClock.Instant?
    ) {
        self.name = name
        self.longestSleep = longestSleep
        self.firstAfter = firstAfter
        self.fire = fire
    }

    /// The timer of the event hub: answers elapsed polls and expires idle subscriptions.
    convenience init(hub: any EventHub) {
        self.init(name: "linkserver-poll-timer") { now in hub.expire(now: now) }
    }

    /// Starts the timer thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Makes sure the thread wakes by `deadline`.
    func schedule(_ deadline: ContinuousClock.Instant) {
        if nanoseconds(deadline) < sleepingUntil.load(ordering: .acquiring) { wake.signal() }
    }

    /// Stops the thread and waits for it.
    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        finished.wait()
    }

    private func run() {
        if firstAfter > .zero { sleep(until: ContinuousClock.now + firstAfter) }
        while running.load(ordering: .acquiring) {
            let now = ContinuousClock.now
            let next = fire(now)
            var until = now + longestSleep
            if let next, next < until { until = next }
            sleep(until: until)
        }
        finished.signal()
    }

    /// Sleeps until `until`, or until woken by ``schedule(_:)`` or ``stop()``.
    private func sleep(until: ContinuousClock.Instant) {
        sleepingUntil.store(nanoseconds(until), ordering: .releasing)
        let delay = max(Duration.zero, until - ContinuousClock.now)
        let micros = delay.components.seconds * 1_000_000 + delay.components.attoseconds / 1_000_000_000_000
        _ = wake.wait(timeout: .now() + .microseconds(Int(micros) + 1))
    }

    private func nanoseconds(_ instant: ContinuousClock.Instant) -> Int64 {
        let offset = instant - origin
        return offset.components.seconds * 1_000_000_000 + offset.components.attoseconds / 1_000_000_000
    }
}
