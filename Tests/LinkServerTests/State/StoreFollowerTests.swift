import Testing

@testable import LinkServer

/// The follower's periods against API.md §12's bounds. The multi-instance tests wait 3 s for "within 1 s" (CI's two
/// loaded cores), so it is these periods, not those waits, that would catch a follower slowed past the contract.
@Suite struct StoreFollowerTests {
    @Test func itsPeriodsKeepTheContractsBounds() {
        // A change is served within one interval plus one read of the revisions and of the changed table.
        #expect(StoreFollower.interval <= .milliseconds(500))
        // `/readyz` is 503 within 5 s of the store stopping to answer: one interval to notice, then this.
        #expect(StoreFollower.unreachableAfter + StoreFollower.interval < .seconds(5))
        // At most 5 s between tries to reach a lost store.
        #expect(StoreFollower.renewInterval <= .seconds(5))
    }
}
