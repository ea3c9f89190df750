import Dispatch
import Foundation
import LinkCore
import Logging
import PostgresNIO
import Synchronization
import Testing

@testable import LinkServer

extension PostgresSuites {
    /// ``PostgresStore`` against a real PostgreSQL (`scripts/with-postgres`): two store objects on one database stand
    /// for two instances.
    ///
    /// The store's synchronous calls park their thread while PostgresNIO works on the Swift concurrency pool, so they
    /// must never run on that pool (as in the service, where MHD and timer threads call them): each test runs its body
    /// on a thread of its own (``onThread(_:)``).
    @Suite struct PostgresStoreTests {
        /// Runs `body` on a new thread and waits for it without holding a thread of the concurrency pool.
        static func onThread(_ body: @escaping @Sendable () throws -> Void) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                Thread {
                    do {
                        try body()
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }.start()
            }
        }

        /// Runs `body` on a plain thread with two stores on one fresh database, closed afterwards.
        static func onTwoStores(_ body: @escaping @Sendable (PostgresStore, PostgresStore) throws -> Void) async throws
        {
            try await onThread {
                let url = try PostgresTestDatabase.create()
                let a = try open(url)
                let b = try open(url)
                defer {
                    try? a.close()
                    try? b.close()
                }
                try body(a, b)
            }
        }

        static func open(_ url: String) throws -> PostgresStore {
            guard case .postgres(let location) = try StorageURL(parsing: url) else {
                throw PostgresTestDatabase.Missing()
            }
            return try PostgresStore(location: location, logger: Logger(label: "test"))
        }

        @Test func migratesOnceAndKeepsWhatWasWritten() async throws {
            try await Self.onThread {
                let url = try PostgresTestDatabase.create()
                let first = try Self.open(url)
                #expect(try first.appliedMigrations() == PostgresSchema.migrations.map(\.version))
                let revision = try first.replaceRouteTrees([["path": "/a", "name": "a"]], ifRevision: 0)
                #expect(revision == 1)
                try first.setMeta("k", "v")
                try first.close()
                let second = try Self.open(url)
                defer { try? second.close() }
                #expect(try second.migrate().isEmpty)
                #expect(try second.loadRouteTrees() == [["path": "/a", "name": "a"]])
                #expect(try second.revisions()[.routes] == 1)
                #expect(try second.meta("k") == "v")
            }
        }

        @Test func aRouteWriteFromAStaleRevisionConflicts() async throws {
            try await Self.onTwoStores { (a, b) throws in
                #expect(try a.replaceRouteTrees([["path": "/a"]], ifRevision: 0) == 1)
                #expect(throws: StoreConflict.self) { try b.replaceRouteTrees([["path": "/b"]], ifRevision: 0) }
                #expect(try b.replaceRouteTrees([["path": "/a"], ["path": "/b"]], ifRevision: 1) == 2)
                #expect(try a.loadRouteTrees().count == 2)
            }
        }

        /// While the follower knows the store is out of reach, every call but its own probe is `unavailable` at once,
        /// without touching the database (here reachable, so a write that went through would show); reached again,
        /// calls go through.
        @Test func aKnownOutageAnswersUnavailableWithoutTryingAndTheProbeStillTries() async throws {
            try await Self.onTwoStores { (a, b) throws in
                try a.setMeta("probe.test", "before")
                let lost = Atomic(true)
                a.failFast { lost.load(ordering: .relaxed) }
                #expect(throws: LinkError.storeUnreachable) { try a.setMeta("probe.test", "during") }
                #expect(throws: LinkError.storeUnreachable) { try a.meta("probe.test") }
                #expect(throws: LinkError.storeUnreachable) {
                    try a.replaceRouteTrees([["path": "/during"]], ifRevision: 0)
                }
                // A write's own read of the revisions (a route write publishes what others committed first) too.
                #expect(throws: LinkError.storeUnreachable) { try a.revisions() }
                // The follower's read of them is the probe: it goes to the database.
                #expect(try a.probeRevisions()[.routes] == 0)
                // The other instance's store is not this one's follower's business.
                #expect(try b.meta("probe.test") == "before")
                lost.store(false, ordering: .relaxed)
                #expect(try a.meta("probe.test") == "before")
                try a.setMeta("probe.test", "after")
                #expect(try b.meta("probe.test") == "after")
            }
        }

        /// A refresh that takes longer than `StoreFollower.unreachableAfter` (a large route reload, a hub waiting on its
        /// lock, a read stuck on a connection the database ended) while the database answers leaves the instance ready
        /// and calls going to it: the probes go on beside it (they waited for it, and `/readyz` said 503). And work
        /// asked for after the next reach runs once the follower's probe gets through.
        @Test func aFollowerBusyRefreshingStaysReadyAndCallsGoToTheStore() async throws {
            try await Self.onTwoStores { (a, b) throws in
                let refreshing = DispatchSemaphore(value: 0)
                let release = DispatchSemaphore(value: 0)
                let follower = StoreFollower(
                    store: a, logger: Logger(label: "test"), baseline: try a.revisions(),
                    refreshers: [
                        (
                            .routes,
                            { _ in
                                refreshing.signal()
                                release.wait()
                            }
                        )
                    ])
                follower.start()
                defer {
                    release.signal()
                    follower.stop()
                }
                let reached = DispatchSemaphore(value: 0)
                follower.afterNextReach { reached.signal() }
                #expect(reached.wait(timeout: .now() + 10) == .success)
                // Another instance changes the routes: the follower's next poll refreshes them, and stays there.
                _ = try b.replaceRouteTrees([["path": "/other"]], ifRevision: 0)
                follower.pollSoon()
                #expect(refreshing.wait(timeout: .now() + 10) == .success)
                Thread.sleep(forTimeInterval: Double(StoreFollower.unreachableAfter.components.seconds) + 0.5)
                #expect(follower.isReachable)
                // Probed meanwhile: work asked for now runs without waiting for the refresh.
                let probed = DispatchSemaphore(value: 0)
                follower.afterNextReach { probed.signal() }
                #expect(probed.wait(timeout: .now() + 10) == .success)
                // The database answers, and no probe failed: calls go to it.
                try a.setMeta("busy.test", "written")
                #expect(try b.meta("busy.test") == "written")
            }
        }

        /// A transaction whose work outlasts its caller is rolled back, not committed after the caller was answered
        /// `unavailable`. The second insert of the same key waits for the first transaction's end, so it tells its
        /// outcome without a sleep: it inserts only if the first was rolled back.
        @Test func aTransactionItsCallerGaveUpOnIsRolledBack() async throws {
            try await Self.onTwoStores { (a, b) throws in
                // The first insert is made (uncommitted) before the second is sent, however late the task ran.
                let inserted = DispatchSemaphore(value: 0)
                #expect(throws: LinkError.storeUnreachable) {
                    try a.transaction(timeout: .milliseconds(300)) { connection, logger in
                        try await connection.query(
                            "INSERT INTO meta (key, value) VALUES ('late', 'first')", logger: logger)
                        inserted.signal()
                        try await connection.query("SELECT pg_sleep(1)", logger: logger)
                    }
                }
                #expect(inserted.wait(timeout: .now() + 30) == .success)
                let second = try b.run { connection, logger in
                    try await connection.query(
                        "INSERT INTO meta (key, value) VALUES ('late', 'second') ON CONFLICT DO NOTHING RETURNING key",
                        logger: logger
                    ).collectColumn(String.self)
                }
                #expect(second == ["late"])
                #expect(try a.meta("late") == "second")
            }
        }

        /// A statement sent while its caller still waited is waited for, past the caller's time: its caller is told
        /// what it did (here, that it committed), never `unavailable` for a change that was made.
        @Test func aStatementBegunInTimeIsWaitedForPastTheTimeout() async throws {
            try await Self.onTwoStores { (a, _) throws in
                let keys = try a.run(timeout: .seconds(2), commits: true) { connection, logger in
                    try await connection.query(
                        """
                        INSERT INTO meta (key, value) SELECT 'slow', 'made' FROM pg_sleep(2.5) RETURNING key
                        """, logger: logger
                    ).collectColumn(String.self)
                }
                #expect(keys == ["slow"])
                #expect(try a.meta("slow") == "made")
                // A read is not waited for past its time: a silent network holds no one (the follower's reads tell
                // an outage within seconds).
                #expect(throws: LinkError.storeUnreachable) {
                    try a.run(timeout: .milliseconds(500)) { connection, logger in
                        try await connection.query("SELECT pg_sleep(2)", logger: logger)
                    }
                }
            }
        }

        @Test func maxClicksTokensAndSeqBlocksHoldAcrossStores() async throws {
            try await Self.onThread {
                let url = try PostgresTestDatabase.create()
                let stores = [try Self.open(url), try Self.open(url)]
                defer { for store in stores { try? store.close() } }
                let counted = Atomic<Int>(0)
                DispatchQueue.concurrentPerform(iterations: 16) { index in
                    for _ in 0..<25 where (try? stores[index % 2].countLimitedClick(pattern: "/p", limit: 150)) == true
                    {
                        counted.add(1, ordering: .relaxed)
                    }
                }
                #expect(counted.load(ordering: .relaxed) == 150)
                #expect(try stores[1].limitedClicks(pattern: "/p") == 150)

                let token = DeferredToken(
                    token: "tok", resolution: ["a": 1], platform: "android", clickedAt: 1, link: "https://l/x",
                    expiresAt: Int64.max / 2)
                try stores[0].saveDeferredToken(token)
                let claims = Mutex<[String]>([])
                DispatchQueue.concurrentPerform(iterations: 20) { index in
                    let claim = try? stores[index % 2].claimDeferredToken(
                        "tok", installID: "i\(index)", now: 10, repeatWindow: 600_000)
                    if let claim { claims.withLock { $0.append("\(index) \(claim.link)") } }
                }
                #expect(claims.withLock { $0.count } == 1)
                let winner = try #require(claims.withLock { $0.first }?.split(separator: " ").first)
                #expect(
                    try stores[1].claimDeferredToken("tok", installID: "i\(winner)", now: 20, repeatWindow: 600_000)?
                        .link
                        == "https://l/x")
                #expect(
                    try stores[1].claimDeferredToken("tok", installID: "other", now: 20, repeatWindow: 600_000) == nil)
                // A repeat within the window outlives the token's own lifetime, and the purge keeps it until then.
                var short = token
                short.token = "short"
                short.expiresAt = 5_000
                try stores[0].saveDeferredToken(short)
                #expect(
                    try stores[0].claimDeferredToken("short", installID: "i", now: 1_000, repeatWindow: 600_000) != nil)
                #expect(try stores[1].purgeDeferredTokens(before: 300_000) == 0)
                // Counted by either instance: both tokens, the claimed ones until they are purged.
                #expect(try stores[0].countDeferredTokens() == 2)
                #expect(try stores[1].countDeferredTokens() == 2)
                #expect(
                    try stores[1].claimDeferredToken("short", installID: "i", now: 300_000, repeatWindow: 600_000)
                        != nil)
                #expect(
                    try stores[1].claimDeferredToken("short", installID: "i", now: 601_001, repeatWindow: 600_000)
                        == nil)

                let blocks = Mutex<[Int]>([])
                DispatchQueue.concurrentPerform(iterations: 10) { index in
                    if let limit = try? stores[index % 2].reserveBlock("seq", after: 0, count: 1024) {
                        blocks.withLock { $0.append(limit) }
                    }
                }
                #expect(blocks.withLock { $0.sorted() } == (1...10).map { $0 * 1024 })
            }
        }

        /// `events.maxTypes` holds across instances (API.md §12: they behave as one service): B planned a registration
        /// against the types it followed, before A's, and the store counts them under its lock. Only growth is
        /// refused: naming a stored type still works at the limit. Without the count, registrations on three
        /// instances at once went past the limit together and the instances disagreed on the types for good.
        /// The sweep keeps the log's tail and, behind it, what a queue still holds: an event of a rare type waits for
        /// its subscriber however many `seq`s go by (API.md §5: only an overflow drops), an overflow is counted as it
        /// goes, and the events every subscriber acknowledged (or none holds) are removed.
        @Test func theSweepRemovesOnlyWhatNoQueueHolds() async throws {
            try await Self.onTwoStores { a, b in
                let now = WallClock.milliseconds()
                for (id, shape) in [("rare", "/rare"), ("full", "/full"), ("busy", "/busy")] {
                    _ = try a.createSubscription(id: id, shapes: [shape], stored: [], ttl: 60_000, now: now, limit: 10)
                }
                func append(_ shape: String) throws -> Int {
                    try #require(
                        try b.appendEvent(.init(shapes: [shape], body: "{}"), now: now, onlyIfHeard: false)?.seq)
                }
                let rare = try append("/rare")
                let full = try (0..<4).map { _ in try append("/full") }
                let busy = try (0..<3).map { _ in try append("/busy") }
                _ = try a.pollSubscription(
                    id: "busy", after: busy[2], now: now, wait: 0, queueLimit: 2, supersedes: true)
                // Every `seq` but the last is behind the tail kept whole.
                try b.sweepEvents(now: now, retain: 1, queueLimit: 2)
                let left = try a.eventShapes(after: 0, through: busy[2], limit: 100).map(\.seq)
                #expect(left == [rare, full[2], full[3], busy[2]])
                let rareQueue = try #require(
                    try a.pollSubscription(
                        id: "rare", after: nil, now: now, wait: 0, queueLimit: 2, supersedes: false, changing: false))
                #expect(rareQueue.events.map(\.seq) == [rare])
                #expect(rareQueue.missed == 0)
                // The queue of two held its newest two; the two before were the overflow, counted once removed.
                let fullQueue = try #require(
                    try a.pollSubscription(
                        id: "full", after: nil, now: now, wait: 0, queueLimit: 2, supersedes: false, changing: false))
                #expect(fullQueue.events.map(\.seq) == [full[2], full[3]])
                #expect(fullQueue.missed == 2)
                // A sweep again changes nothing; an acknowledgement lets the rare event go.
                try a.sweepEvents(now: now, retain: 1, queueLimit: 2)
                #expect(
                    try #require(
                        try b.pollSubscription(
                            id: "full", after: nil, now: now, wait: 0, queueLimit: 2, supersedes: false,
                            changing: false)
                    ).missed == 2)
                _ = try a.pollSubscription(id: "rare", after: rare, now: now, wait: 0, queueLimit: 2, supersedes: true)
                try b.sweepEvents(now: now, retain: 1, queueLimit: 2)
                #expect(
                    try a.eventShapes(after: 0, through: busy[2], limit: 100).map(\.seq) == [full[2], full[3], busy[2]])
            }
        }

        /// An overflow event another queue still holds stays in the log, and is counted by the polls (past the queue
        /// limit) only: a sweep, however often it runs, does not count it again.
        @Test func anOverflowAnotherQueueHoldsIsCountedOnce() async throws {
            try await Self.onTwoStores { a, b in
                let now = WallClock.milliseconds()
                _ = try a.createSubscription(
                    id: "both", shapes: ["/a", "/b"], stored: [], ttl: 60_000, now: now, limit: 10)
                _ = try a.createSubscription(id: "onlyA", shapes: ["/a"], stored: [], ttl: 60_000, now: now, limit: 10)
                var last = 0
                for shape in ["/a", "/b", "/b", "/x", "/x", "/x"] {
                    last = try #require(
                        try b.appendEvent(.init(shapes: [shape], body: "{}"), now: now, onlyIfHeard: false)?.seq)
                }
                for _ in 0..<3 { try b.sweepEvents(now: now, retain: 1, queueLimit: 2) }
                let both = try #require(
                    try a.pollSubscription(
                        id: "both", after: nil, now: now, wait: 0, queueLimit: 2, supersedes: false, changing: false))
                #expect(both.events.count == 2)
                #expect(both.missed == 1)
                #expect(
                    try a.eventShapes(after: 0, through: last, limit: 100).map(\.shapes) == [
                        ["/a"], ["/b"], ["/b"], ["/x"],
                    ])
            }
        }

        @Test func theTypeLimitHoldsAcrossInstances() async throws {
            try await Self.onTwoStores { (a, b) throws in
                let bus = EventBus(limits: .init(maxTypes: 4))
                let limit = EventTypeLimit(stored: 2, error: bus.typeLimitReached)
                let first = EventType(pattern: try Pattern("/a/:x"))
                try a.saveEventTypes([first], before: [nil], within: limit)
                try a.saveEventTypes([EventType(pattern: try Pattern("/b/:x"))], before: [nil], within: limit)
                #expect(throws: bus.typeLimitReached) {
                    try b.saveEventTypes([EventType(pattern: try Pattern("/c/:x"))], before: [nil], within: limit)
                }
                #expect(try b.loadEventTypes().count == 2)
                let named = EventType(pattern: first.pattern, name: "first")
                try b.saveEventTypes([named], before: [first], within: limit)
                #expect(try a.loadEventTypes().first { $0.pattern == first.pattern }?.name == "first")
            }
        }

        @Test func resourceRevisionsAreCheckedAgainstTheStore() async throws {
            try await Self.onTwoStores { (a, b) throws in
                let resource = Resource(
                    pattern: try Pattern("/flags/:p"), name: "flags", content: .value(1), revision: 1)
                try a.saveResourceChange(.created(resource), revision: 1)
                #expect(throws: StoreConflict.self) { try b.saveResourceChange(.created(resource), revision: 1) }
                let loaded = try b.loadResources()
                #expect(loaded.revision == 1)
                #expect(loaded.resources.map(\.name) == ["flags"])
            }
        }

        /// What the database answers becomes the contract's errors: a transaction the database undid because of a
        /// concurrent one (class 40: a deadlock, a serialization failure) and a database out of resources (class 53:
        /// a full disk) are 503 `unavailable`, which the client may retry, and the transaction is rolled back; a name
        /// taken is `name_conflict`; anything else stays unexpected (a 500, logged). Each is raised for real by the
        /// server, as a trigger or a failing statement would.
        @Test(arguments: [
            ("40P01", LinkError.rolledBack), ("40001", LinkError.rolledBack), ("53100", LinkError.storeUnreachable),
            ("23505", LinkError(.nameConflict, "The name is already bound to a different pattern")),
        ])
        func theDatabasesRefusalsAreTheContractsErrors(state: String, expected: LinkError) async throws {
            try await Self.onTwoStores { (a, _) throws in
                #expect(throws: expected) {
                    try a.transaction { connection, logger in
                        try await connection.query(
                            "INSERT INTO meta (key, value) VALUES ('undone', 'x')", logger: logger)
                        try await connection.query(
                            "DO $$ BEGIN RAISE EXCEPTION 'refused' USING ERRCODE = '\(unescaped: state)'; END $$",
                            logger: logger)
                    }
                }
                #expect(try a.meta("undone") == nil)
            }
        }

        /// Anything else stays unexpected: a bad statement, and the rest of class 40 (40003: the statement's outcome
        /// is unknown, so "nothing was changed: try again" would be untrue).
        @Test(arguments: [
            "SELECT 'not a number'::integer", "DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '40003'; END $$",
        ])
        func anUnexpectedRefusalStaysUnexpected(statement: String) async throws {
            try await Self.onTwoStores { (a, _) throws in
                let error = #expect(throws: PostgresStoreError.self) {
                    try a.run { connection, logger in
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                }
                #expect(error?.description.contains(statement.hasPrefix("SELECT") ? "22P02" : "40003") == true)
            }
        }
    }
}
