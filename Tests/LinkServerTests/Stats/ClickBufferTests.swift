import LinkCore
import Logging
import Synchronization
import Testing

@testable import LinkServer

/// Click counts wait in memory while the store cannot take them, at most `links.bufferedClicks` (API.md §12);
/// beyond, the oldest are dropped and counted for the log.
@Suite struct ClickBufferTests {
    static func key(_ pattern: String) -> ClickKey {
        ClickKey(day: 20_000, pattern: pattern, platform: "ios", kind: .click)
    }

    @Test func theOldestClicksAreDroppedBeyondTheLimit() {
        var pending = ClickLedger.Pending()
        pending.add(Self.key("/a"), name: "a", count: 3, limit: 5)
        pending.add(Self.key("/b"), name: "b", count: 2, limit: 5)
        #expect(pending.total == 5 && pending.dropped == 0)
        // Two more on a newer key: two of the oldest key's go.
        pending.add(Self.key("/c"), name: nil, count: 2, limit: 5)
        #expect(pending.total == 5 && pending.dropped == 2)
        #expect(pending.counters[Self.key("/a")]?.count == 1)
        // Past a whole key: it is removed, and the next oldest pays the rest.
        pending.add(Self.key("/c"), name: nil, count: 3, limit: 5)
        #expect(pending.counters[Self.key("/a")] == nil)
        #expect(pending.counters[Self.key("/b")] == nil)
        #expect(pending.counters[Self.key("/c")]?.count == 5)
        #expect(pending.total == 5 && pending.dropped == 5)
    }

    @Test func countsWithinTheLimitAreKeptWhole() {
        var pending = ClickLedger.Pending()
        for index in 0..<100 { pending.add(Self.key("/k\(index % 7)"), name: nil, count: 1, limit: 100) }
        #expect(pending.total == 100 && pending.dropped == 0)
        #expect(pending.counters.values.reduce(0) { $0 + $1.count } == 100)
    }

    /// API.md §12: while the shared store is out of reach the counts wait in memory, at most `links.bufferedClicks`;
    /// beyond, the oldest are dropped and logged (each second, with how many), and no write is tried. Once it is
    /// back, what was kept is written.
    @Test func duringAnOutageTheOldestBeyondTheLimitAreDroppedAndLogged() throws {
        let store = try SQLiteStore(directory: TestServer.temporaryDirectory())
        let reachable = Atomic<Bool>(false)
        let capture = DaemonLogTests.Capture()
        let ledger = ClickLedger(
            store: store, logger: Logger(label: "test", factory: capture.handler), limit: 3,
            storeReachable: { reachable.load(ordering: .relaxed) })
        for _ in 0..<2 { ledger.record(Self.key("/old"), name: "old") }
        for _ in 0..<3 { ledger.record(Self.key("/a"), name: "a") }
        ledger.flush()
        let entries = capture.entries.withLock { $0 }
        let dropped = entries.first { $0.message == "click statistics buffer full; oldest clicks dropped" }
        #expect(dropped?.metadata["dropped"] == "2")
        #expect(dropped?.metadata["links.bufferedClicks"] == "3")
        #expect(!entries.contains { $0.message.contains("write failed") })
        #expect(try store.loadClickCounts(from: 20_000, to: 20_000).isEmpty)
        // Logged once: the next flush has nothing new to say.
        ledger.flush()
        #expect(capture.entries.withLock { $0 }.count == entries.count)
        reachable.store(true, ordering: .relaxed)
        ledger.flush()
        // The oldest (`/old`'s two) were the ones dropped.
        #expect(try store.loadClickCounts(from: 20_000, to: 20_000).map { [$0.key.pattern: $0.count] } == [["/a": 3]])
        try store.close()
    }

    /// A stop whose last write fails (a shared store out of reach, here a trigger that refuses every row) says
    /// how many clicks are lost; it said "kept for the next try", and there is none. A stop that writes them says
    /// nothing of the kind.
    @Test func aStopThatCannotWriteSaysHowManyClicksAreLost() throws {
        for refusing in [true, false] {
            let store = try SQLiteStore(directory: TestServer.temporaryDirectory())
            if refusing {
                try store.database.write { db in
                    try db.execute(
                        sql: "CREATE TRIGGER refuse BEFORE INSERT ON click_count "
                            + "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
                }
            }
            let capture = DaemonLogTests.Capture()
            let ledger = ClickLedger(store: store, logger: Logger(label: "test", factory: capture.handler))
            for _ in 0..<3 { ledger.record(Self.key("/a"), name: "a") }
            ledger.record(Self.key("/b"), name: nil)
            ledger.stop()
            let lost = capture.entries.withLock { $0 }.first { $0.message.contains("these clicks are lost") }
            if refusing {
                #expect(lost?.metadata["clicks"] == "4")
            } else {
                #expect(lost == nil)
                #expect(try store.loadClickCounts(from: 20_000, to: 20_000).map(\.count).reduce(0, +) == 4)
            }
            try store.close()
        }
    }

    /// What a stop cannot write is kept in the data folder and counted again at the next start: written then, the
    /// file gone. (The store refuses every row here, as a shared store out of reach would.)
    @Test func aStopThatCannotWriteKeepsTheClicksForTheNextStart() throws {
        let folder = TestServer.temporaryDirectory()
        let refusing = try SQLiteStore(directory: TestServer.temporaryDirectory())
        try refusing.database.write { db in
            try db.execute(
                sql: "CREATE TRIGGER refuse BEFORE INSERT ON click_count "
                    + "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        }
        let capture = DaemonLogTests.Capture()
        let first = ClickLedger(
            store: refusing, logger: Logger(label: "test", factory: capture.handler),
            kept: KeptClicks(directory: folder))
        for _ in 0..<3 { first.record(Self.key("/a"), name: "a") }
        first.record(Self.key("/b"), name: nil)
        first.stop()
        try refusing.close()
        let entries = capture.entries.withLock { $0 }
        #expect(entries.first { $0.message.contains("kept for the next start") }?.metadata["clicks"] == "4")
        #expect(!entries.contains { $0.message.contains("these clicks are lost") })

        let store = try SQLiteStore(directory: TestServer.temporaryDirectory())
        defer { try? store.close() }
        let next = ClickLedger(store: store, logger: Logger(label: "test"), kept: KeptClicks(directory: folder))
        next.takeKept()
        next.record(Self.key("/a"), name: "a")
        next.stop()
        let counts = try store.loadClickCounts(from: 20_000, to: 20_000)
        #expect(counts.first { $0.key.pattern == "/a" }?.count == 4)
        #expect(counts.first { $0.key.pattern == "/a" }?.name == "a")
        #expect(counts.first { $0.key.pattern == "/b" }?.count == 1)
        #expect(try KeptClicks(directory: folder).take { _ in Issue.record("taken twice") } == 0)
    }

    /// Two stops on one folder (instances of a shared store) add up; a start takes it all, once. A start whose store
    /// does not take them (it failed, or went away) leaves them for the next one.
    @Test func keptCountsAddUpAndAreTakenOnceStored() throws {
        let kept = KeptClicks(directory: TestServer.temporaryDirectory() + "/missing-yet")
        #expect(try kept.take { _ in Issue.record("nothing was kept") } == 0)
        try kept.add([ClickCount(key: Self.key("/a"), name: nil, count: 2)])
        try kept.add([
            ClickCount(key: Self.key("/a"), name: "a", count: 3), ClickCount(key: Self.key("/b"), name: "b", count: 1),
        ])
        struct Refused: Error {}
        #expect(throws: Refused.self) { try kept.take { _ in throw Refused() } }
        var taken: [ClickCount] = []
        #expect(try kept.take { taken = $0 } == 6)
        #expect(
            taken == [
                ClickCount(key: Self.key("/a"), name: "a", count: 5),
                ClickCount(key: Self.key("/b"), name: "b", count: 1),
            ])
        #expect(try kept.take { _ in Issue.record("taken twice") } == 0)
    }
}
