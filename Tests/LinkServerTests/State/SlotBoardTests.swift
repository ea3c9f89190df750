import LinkCore
import Synchronization
import Testing

@testable import LinkServer

/// The slot board's expiry queue (API.md §11: a presentation ends at `expires` without any request): it must not
/// grow with every present into a busy slot, and rebuilding it must lose no presentation still to end.
@Suite struct SlotBoardTests {
    /// A clock the test moves, in milliseconds.
    final class Clock: Sendable {
        private let milliseconds = Atomic<Int64>(1_000_000)
        var now: Int64 { milliseconds.load(ordering: .relaxed) }
        func advance(seconds: Double) { milliseconds.add(Int64(seconds * 1000), ordering: .relaxed) }
    }

    /// A board on `store` whose time is `clock`'s (the test moves it), with an event hub of its own.
    static func board(on store: any Store, clock: Clock) throws -> SlotBoard {
        try SlotBoard(store: store, hub: LocalEventHub(types: EventBus()), clock: { clock.now })
    }

    /// A board on a real embedded store, with a clock the test moves.
    private static func board() throws -> (SlotBoard, SQLiteStore, Clock) {
        let store = try SQLiteStore(directory: TestServer.temporaryDirectory())
        let clock = Clock()
        return (try board(on: store, clock: clock), store, clock)
    }

    @Test func dismissedAndReplacedPresentationsLeaveNoQueuedExpiries() throws {
        let (board, store, _) = try Self.board()
        defer { try? store.close() }
        // Each present replaces the one before (a higher priority) or fills the slot it left; every third is updated
        // too, every second dismissed. A day's ttl: without the rebuild, each entry would stay until then.
        for index in 0..<1_000 {
            let id = "p\(index)"
            #expect(try board.present("banner", id: id, priority: index, payload: .null, ttl: 86_400).reason != nil)
            if index.isMultiple(of: 3) { _ = try board.present("banner", id: id, priority: index, payload: 1, ttl: 90) }
            if index.isMultiple(of: 2) { #expect(try board.dismiss("banner", id: id).reason == "dismissed") }
        }
        #expect(board.queuedExpiries <= 100)  // not one per present
        #expect(board.current("banner")?.id == "p999")
    }

    @Test func aRebuiltQueueStillEndsEveryPresentationOnTime() throws {
        let (board, store, clock) = try Self.board()
        defer { try? store.close() }
        for slot in 0..<10 {
            _ = try board.present("quiet\(slot)", id: "q\(slot)", priority: 0, payload: .null, ttl: 60 + slot)
        }
        for index in 0..<500 {
            _ = try board.present("busy", id: "b\(index)", priority: 0, payload: .null, ttl: 86_400)
            _ = try board.dismiss("busy", id: "b\(index)")
        }
        #expect(board.queuedExpiries <= 100)  // not one per present

        clock.advance(seconds: 64.5)  // past the first five ttls (60–64 s), before the others (65–69 s)
        board.expireDue()
        let stored = try store.loadSlots()
        #expect(Set(stored.keys) == Set((5..<10).map { "quiet\($0)" }))

        clock.advance(seconds: 10)
        board.expireDue()
        #expect(try store.loadSlots().isEmpty)
        clock.advance(seconds: 86_400)  // the busy slot's stale entries come due, and go, changing nothing
        board.expireDue()
        #expect(board.queuedExpiries == 0)
    }
}
