import Dispatch
import Foundation
import LinkCore
import Synchronization

/// The one thread that answers long-polls whose wait has elapsed, and expires idle subscriptions. libmicrohttpd
/// never times out a suspended connection on its own, so without it a quiet poll would hang.
final class PollTimer: Sendable {
    private let bus: EventBus
    private let wake = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(true)
    /// The instant the thread sleeps until, as nanoseconds of `ContinuousClock` since `origin`.
    private let sleepingUntil = Atomic<Int64>(0)
    private let origin = ContinuousClock.now
    private let finished = DispatchSemaphore(value: 0)
    /// Longest sleep, so idle subscriptions are swept about once a second.
    private static let sweepInterval = Duration.seconds(1)

    init(bus: EventBus) {
        self.bus = bus
    }

    /// Starts the timer thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "linkserver-poll-timer"
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
        while running.load(ordering: .acquiring) {
            let now = ContinuousClock.now
            bus.expire(now: now)
            var until = now + PollTimer.sweepInterval
            if let next = bus.nextDeadline, next < until { until = next }
            sleepingUntil.store(nanoseconds(until), ordering: .releasing)
            let delay = max(Duration.zero, until - ContinuousClock.now)
            let micros = delay.components.seconds * 1_000_000 + delay.components.attoseconds / 1_000_000_000_000
            _ = wake.wait(timeout: .now() + .microseconds(Int(micros) + 1))
        }
        finished.signal()
    }

    private func nanoseconds(_ instant: ContinuousClock.Instant) -> Int64 {
        let offset = instant - origin
        return offset.components.seconds * 1_000_000_000 + offset.components.attoseconds / 1_000_000_000
    }
}
