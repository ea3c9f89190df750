import LinkCore
import Logging
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
                let a = try SlotBoardTests.board(on: storeA, clock: clock)
                let b = try SlotBoardTests.board(on: storeB, clock: clock)
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

        /// With a shared store a slot change commits with its `slotChanged` event, in one transaction (API.md §11,
        /// §12; api-notes). The board asks the hub through `any EventHub`: while `storedEvent` was no requirement of
        /// the protocol, that call reached the protocol's default (no event) instead of the shared hub's, and the
        /// event was emitted after the commit in a transaction of its own (an audit lost it behind a held lock, and
        /// saw two changes' events out of order).
        @Test func aSlotChangeIsStoredWithItsEvent() async throws {
            try await PostgresStoreTests.onTwoStores { storeA, storeB in
                let bus = EventBus(types: [EventType(pattern: try Pattern("/slots/:slot"), name: "slots")])
                let hub: any EventHub = try SharedEventHub(types: bus, store: storeA, logger: Logger(label: "test"))
                let location = Location(segments: ["slots", "s"], query: Query([]))
                let stored = try #require(try hub.storedEvent(location, extra: ["reason": "presented"], time: "t"))
                #expect(stored.shapes == [try Pattern("/slots/:slot").shape()])
                // And the board stores it so: a subscription of B's sees the event once A's present has returned.
                let subscriber = try SharedEventHub(types: bus, store: storeB, logger: Logger(label: "test"))
                let (id, _) = try subscriber.subscribe([EventTypeRequest(path: "/slots/:slot")], ttl: .seconds(60))
                let board = try SlotBoard(store: storeA, hub: hub, clock: { WallClock.milliseconds() })
                #expect(try board.present("s", id: "x", priority: 1, payload: .null, ttl: 60).reason == "presented")
                let answer = try subscriber.peek(id, after: nil)
                guard case .value(let value) = answer.content else {
                    Issue.record("the shared hub answered a poll from memory")
                    return
                }
                #expect(value["events"]?.arrayValue?.count == 1)
            }
        }

        /// B presents `x` into `s` (priority 1, 60 s), then A starts and reads it: two instances that agree, until B
        /// changes `x` without A hearing of it.
        private static func agreeingOnX(
            _ storeA: PostgresStore, _ storeB: PostgresStore, _ clock: SlotBoardTests.Clock
        ) throws -> (a: SlotBoard, b: SlotBoard) {
            let b = try SlotBoardTests.board(on: storeB, clock: clock)
            #expect(try b.present("s", id: "x", priority: 1, payload: 1, ttl: 60).reason == "presented")
            let a = try SlotBoardTests.board(on: storeA, clock: clock)
            #expect(a.current("s")?.id == "x")
            return (a, b)
        }

        /// B updates its presentation (same id: `since` kept, a longer `ttl`) just before it ends; A, which has not
        /// seen the update, ends it at the old `expires`. The store must refuse A's expiry: it matched the slot by
        /// `id` and `since` only, so the update was acknowledged and then lost (found by an audit, 1 try in 4).
        @Test func anUpdateJustBeforeTheEndIsNotEndedByAStaleExpiry() async throws {
            try await PostgresStoreTests.onTwoStores { storeA, storeB in
                let clock = SlotBoardTests.Clock()
                let (a, b) = try Self.agreeingOnX(storeA, storeB, clock)

                clock.advance(seconds: 59)
                #expect(try b.present("s", id: "x", priority: 1, payload: 2, ttl: 600).reason == "presented")
                clock.advance(seconds: 2)
                a.expireDue()
                let stored = try #require(try storeA.loadSlots()["s"])
                #expect(stored.id == "x" && stored.payload == 2)
                #expect(a.current("s")?.payload == 2)
            }
        }

        /// B raises its presentation's priority (same id, the same `expires`); A, which has not seen it, presents
        /// something between the two priorities. The store must refuse A's replacement, decided on the old
        /// priority, and A, deciding again, presents nothing.
        @Test func aReplacementDecidedOnAnOldPriorityIsRefused() async throws {
            try await PostgresStoreTests.onTwoStores { storeA, storeB in
                let clock = SlotBoardTests.Clock()
                let (a, b) = try Self.agreeingOnX(storeA, storeB, clock)
                clock.advance(seconds: 30)
                #expect(try b.present("s", id: "x", priority: 10, payload: 2, ttl: 30).reason == "presented")
                #expect(try storeA.loadSlots()["s"]?.expires == a.current("s")?.expires)
                #expect(try a.present("s", id: "y", priority: 5, payload: 3, ttl: 60).reason == nil)
                #expect(try storeA.loadSlots()["s"]?.id == "x")
            }
        }
    }
}
