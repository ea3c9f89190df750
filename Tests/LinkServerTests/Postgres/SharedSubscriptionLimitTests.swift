import Foundation
import LinkCore
import Synchronization
import Testing

@testable import LinkServer

extension PostgresSuites {
    /// API.md §1 `too_many_subscriptions`: the limit on live subscriptions holds when instances open them at once.
    @Suite struct SharedSubscriptionLimitTests {
        @Test func concurrentOpeningsOnTwoInstancesStopAtTheLimit() async throws {
            try await PostgresStoreTests.onTwoStores { a, b in
                let opened = Atomic<Int>(0)
                let refused = Atomic<Int>(0)
                let failures = Mutex<[String]>([])
                // Eight threads, four on each instance, open six subscriptions each against a limit of ten.
                let done = DispatchGroup()
                for index in 0..<8 {
                    done.enter()
                    Thread.detachNewThread {
                        defer { done.leave() }
                        let store = index.isMultiple(of: 2) ? a : b
                        for attempt in 0..<6 {
                            do {
                                _ = try store.createSubscription(
                                    id: "s-\(index)-\(attempt)", shapes: ["/lim/*"], stored: [], ttl: 600_000,
                                    now: 1_000, limit: 10)
                                opened.add(1, ordering: .relaxed)
                            } catch let error as LinkError where error.code == .tooManySubscriptions {
                                refused.add(1, ordering: .relaxed)
                            } catch {
                                failures.withLock { $0.append("\(error)") }
                            }
                        }
                    }
                }
                done.wait()
                #expect(failures.withLock { $0 }.isEmpty)
                #expect(opened.load(ordering: .relaxed) == 10)
                #expect(refused.load(ordering: .relaxed) == 38)
            }
        }
    }
}
