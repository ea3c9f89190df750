import Dispatch
import Synchronization
import Testing

@testable import LinkServer

/// How a shared-store call ends when its time is up: given up (and nothing commits after), or waited for once a
/// commit has begun. The PostgreSQL suites check the same against a real database.
@Suite struct AsyncBridgeTests {
    @Test func aCommitAskedForAfterTheCallerGaveUpIsRefused() throws {
        let lease = DispatchSemaphore(value: 0)
        let asked = DispatchSemaphore(value: 0)
        let refused = Atomic<Bool>(false)
        #expect(throws: PostgresStoreError.self) {
            try AsyncBridge.wait(timeout: .milliseconds(50), commitLimit: .seconds(60)) { commitment in
                // Stands for a connection that comes after the caller's time.
                lease.wait()
                do {
                    try commitment.begin()
                } catch {
                    refused.store(true, ordering: .releasing)
                }
                asked.signal()
                return 1
            }
        }
        lease.signal()
        asked.wait()
        let wasRefused = refused.load(ordering: .acquiring)
        #expect(wasRefused)
    }

    @Test func aCommitBegunInTimeIsWaitedForPastTheTimeout() throws {
        let start = ContinuousClock.now
        // Two seconds for the task to begin its commit (a loaded machine), then it outlasts the caller's time.
        let value = try AsyncBridge.wait(timeout: .seconds(2), commitLimit: .seconds(60)) { commitment in
            try commitment.begin()
            // Stands for a statement that ends after the caller's time.
            try await Task.sleep(until: start + .seconds(3))
            return 42
        }
        #expect(value == 42)
    }

    @Test func theCommitmentIsDecidedByWhicheverComesFirst() throws {
        let begunFirst = AsyncBridge.Commitment()
        try begunFirst.begin()
        #expect(begunFirst.abandon() != nil)
        try begunFirst.begin()  // a second statement of the same call

        let abandonedFirst = AsyncBridge.Commitment()
        #expect(abandonedFirst.abandon() == nil)
        #expect(throws: PostgresStoreError.self) { try abandonedFirst.begin() }
    }
}
