import Dispatch
import Synchronization
import Testing

@testable import LinkServer

/// SIGHUP's reloads (`ReloadRequests`, driven by the signal source in `TerminationSignal`): one that comes before the
/// start has given the handler is kept, not lost.
@Suite struct ReloadRequestsTests {
    @Test func aRequestBeforeTheHandlerRunsItOnceItIsGiven() {
        let requests = ReloadRequests()
        let runs = Atomic<Int>(0)
        let ran = DispatchSemaphore(value: 0)
        // Two signals before the handler coalesce into one reload, as the signal source coalesces them too.
        requests.queue.sync { requests.received() }
        requests.queue.sync { requests.received() }
        requests.handle {
            runs.add(1, ordering: .relaxed)
            ran.signal()
        }
        #expect(ran.wait(timeout: .now() + 10) == .success)
        requests.queue.sync {}
        #expect(runs.load(ordering: .relaxed) == 1)
        // From now on every request runs it.
        requests.queue.sync { requests.received() }
        #expect(runs.load(ordering: .relaxed) == 2)
    }

    @Test func noRequestNoReload() {
        let requests = ReloadRequests()
        let runs = Atomic<Int>(0)
        requests.handle { runs.add(1, ordering: .relaxed) }
        requests.queue.sync {}
        #expect(runs.load(ordering: .relaxed) == 0)
        requests.queue.sync { requests.received() }
        #expect(runs.load(ordering: .relaxed) == 1)
    }
}
