import LinkCore
import Synchronization
import Testing

@testable import LinkServer

/// The live-state shape every holder uses: compute → commit → publish, serialised; readers keep their snapshot;
/// a stale commit refreshes and computes again.
@Suite struct LiveStateTests {
    /// A stand-in store: the committed value and revision, with a way to commit "from another instance".
    final class Committed: Sendable {
        let state = Mutex<(value: [Int], revision: Int)>(([], 0))
        let commits = Atomic<Int>(0)

        /// Commits `value` if the store still holds `revision`, else throws ``StoreConflict``.
        func commit(_ value: [Int], ifRevision revision: Int) throws -> Int {
            try state.withLock { current in
                guard current.revision == revision else { throw StoreConflict(table: .resources) }
                current = (value, revision + 1)
                commits.add(1, ordering: .relaxed)
                return current.revision
            }
        }

        func live() -> LiveState<[Int]> {
            LiveState([], revision: 0) { [self] snapshot in
                let stored = state.withLock { $0 }
                return stored.revision == snapshot.revision ? nil : .init(stored.value, revision: stored.revision)
            }
        }
    }

    private func append(_ number: Int, to live: LiveState<[Int]>, store: Committed) throws -> Int {
        try live.write { current in
            .init(current.value + [number], result: number) {
                try store.commit(current.value + [number], ifRevision: current.revision)
            }
        }
    }

    @Test func aWriteIsPublishedWithTheRevisionItCommitted() throws {
        let store = Committed()
        let live = store.live()
        let before = live.snapshot
        #expect(try append(7, to: live, store: store) == 7)
        #expect(live.value == [7])
        #expect(live.snapshot.revision == 1)
        // A reader's snapshot is immutable: the write did not touch it.
        #expect(before.value == [] && before.revision == 0)
    }

    /// Caches of what is derived from a snapshot compare serials: each publication has a new one, also when the
    /// snapshots before it are gone (their memory free for the next one).
    @Test func everyPublishedSnapshotHasANewSerial() throws {
        let store = Committed()
        let live = store.live()
        var seen: Set<UInt64> = [live.snapshot.serial]
        var last = live.snapshot.serial
        for number in 1...50 {
            _ = try append(number, to: live, store: store)
            let serial = live.snapshot.serial
            #expect(serial > last)
            #expect(seen.insert(serial).inserted)
            last = serial
        }
        // A snapshot keeps its serial.
        #expect(live.snapshot.serial == last)
    }

    @Test func aFailedCommitPublishesNothing() {
        struct DiskFull: Error {}
        let live = Committed().live()
        #expect(throws: DiskFull.self) {
            try live.write { current in .init(current.value + [1], result: ()) { throw DiskFull() } }
        }
        #expect(live.value == [] && live.snapshot.revision == 0)
    }

    @Test func anUnchangedWriteCommitsNothing() throws {
        let store = Committed()
        let live = store.live()
        let answer = try live.write { current in .init(unchanged: current.value, result: "same") }
        #expect(answer == "same")
        #expect(store.commits.load(ordering: .relaxed) == 0)
    }

    @Test func aStaleWriteFollowsTheOtherInstanceAndComputesAgain() throws {
        let store = Committed()
        let live = store.live()
        _ = try store.commit([1, 2], ifRevision: 0)  // another instance
        #expect(try append(3, to: live, store: store) == 3)
        #expect(live.value == [1, 2, 3])
        #expect(store.state.withLock { $0.revision } == 2)
    }

    /// A write whose commit meets another instance's change every time is given up after ``LiveState/maxAttempts``
    /// tries, as 503 `unavailable` (the client may try again), not an internal error; nothing is published.
    @Test func aWriteThatKeepsMeetingChangesIsUnavailable() throws {
        let live = LiveState<[Int]>([], revision: 0) { _ in nil }
        let tries = Atomic<Int>(0)
        #expect(throws: LinkError.keptChanging) {
            try live.write { current in
                .init(current.value + [1], result: ()) {
                    tries.add(1, ordering: .relaxed)
                    throw StoreConflict(table: .routes)
                }
            }
        }
        #expect(tries.load(ordering: .relaxed) == LiveState<[Int]>.maxAttempts + 1)
        #expect(live.value == [])
    }

    @Test func refreshPublishesOnlyAnotherRevision() throws {
        let store = Committed()
        let live = store.live()
        #expect(try live.refresh() == false)
        _ = try store.commit([5], ifRevision: 0)
        #expect(try live.refresh() == true)
        #expect(live.value == [5])
        #expect(try live.refresh() == false)
    }

    @Test func concurrentWritersAreSerialised() async throws {
        let store = Committed()
        let live = store.live()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<200 {
                group.addTask { _ = try self.append(number, to: live, store: store) }
            }
            try await group.waitForAll()
        }
        #expect(Set(live.value) == Set(0..<200))
        #expect(live.snapshot.revision == 200)
        #expect(store.commits.load(ordering: .relaxed) == 200)
    }
}
