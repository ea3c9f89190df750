import LinkCore
import Testing

@testable import LinkServer

extension PostgresSuites {
    /// Two slot boards on one PostgreSQL database (two instances, without their store followers): a presentation
    /// another instance made ends on time here too (API.md §11, §12), however this instance came to publish it.
    @Suite struct SharedSlotBoardTests {
        /// A is behind: B presents into `y` and `z`, then A presents into `y` from its stale copy. The store refuses
        /// A's write, A publishes what B committed (all of it) and decides again (refused: a lower priority). A must
        /// then end `z` at its `expires`, with no request: that publication queued no expiry once.
        @Test func aPresentationPublishedByAStaleWriteStillEnds() async throws {
            try await PostgresStoreTests.onTwoStores { storeA, storeB in
                let clock = SlotBoardTests.Clock()
                let a = try SlotBoard(store: storeA, hub: LocalEventHub(types: EventBus()), clock: { clock.now })
                let b = try SlotBoard(store: storeB, hub: LocalEventHub(types: EventBus()), clock: { clock.now })
                #expect(try b.present("y", id: "q", priority: 5, payload: .null, ttl: 600).reason == "presented")
                #expect(try b.present("z", id: "p", priority: 1, payload: .null, ttl: 60).reason == "presented")
                #expect(try a.present("y", id: "low", priority: 1, payload: .null, ttl: 600).reason == nil)
                #expect(a.current("z")?.id == "p")

                clock.advance(seconds: 61)
                a.expireDue()
                #expect(try storeA.loadSlots()["z"] == nil)
                #expect(try storeA.loadSlots()["y"]?.id == "q")
            }
        }
    }
}
