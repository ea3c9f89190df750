import Dispatch
import Foundation
import LinkCore
import Logging
import Synchronization

/// Keeps this instance's live state in step with a shared store (API.md §12).
///
/// A timer thread reads every shared table's revision ``interval`` apart (a one-row-per-table query, the probe); a
/// second thread calls, for each table whose revision moved, that table's refresher, which re-reads it and publishes
/// it through its live-state holder (``LiveRoutes``, ``LiveResources``, the event bus's types, ``SlotBoard``). So a
/// change committed by any instance is served here within `interval` plus one read, well inside the contract's 1 s.
/// `NOTIFY` is sent by writers as a wake-up for a later listener; polling alone gives the bound, and it needs no
/// listening connection.
///
/// The probes go on while a refresh runs: whether the store answers is told by them alone, not by how long a
/// table takes to read (a large route table, or a read stuck on a connection the database ended, which PostgresNIO
/// gives up only at the call's timeout: with the refreshes on the probing thread, `/readyz` answered 503 for a few
/// seconds after `pg_terminate_backend` though the database answered every probe).
final class StoreFollower: Sendable {
    static let interval = Duration.milliseconds(250)
    /// After this long without reaching the store, `/readyz` answers 503 (API.md §12: within 5 s).
    static let unreachableAfter = Duration.seconds(3)

    private let store: any Store
    private let logger: Logger
    private let refreshers: [(SharedTable, @Sendable (Int) throws -> Void)]
    private let seen: Mutex<[SharedTable: Int]>
    private let timer = Mutex<DeadlineTimer?>(nil)
    /// Wakes the refreshing thread (``refreshWhileRunning()``): a probe found a revision moved, or the follower stops.
    private let refreshWake = DispatchSemaphore(value: 0)
    /// Whether the follower runs (from ``start()`` to ``stop()``): once cleared, the refreshing thread ends and a
    /// refresh under way skips its remaining tables.
    private let refreshing = Atomic<Bool>(false)
    private let refresherEnded = DispatchSemaphore(value: 0)
    /// The revisions the last probe that got through read.
    private let latest = Mutex<[SharedTable: Int]?>(nil)
    /// When the store last answered a poll.
    private let lastReached = Mutex(ContinuousClock.now)
    private let failing = Atomic<Bool>(false)
    /// Work waiting for the next poll that reaches the store (``afterNextReach(_:)``).
    private let afterReach = Mutex<[@Sendable () -> Void]>([])
    /// When the store was last reached or its connections last renewed, while it is unreachable.
    private let lastRenewal = Mutex(ContinuousClock.now)
    /// While the store is unreachable its connections are renewed this often (API.md §12: at most 5 s between
    /// tries).
    static let renewInterval = Duration.seconds(4)

    /// `baseline`: the revisions read before the holders loaded their state.
    init(
        store: any Store, logger: Logger, baseline: [SharedTable: Int],
        refreshers: [(SharedTable, @Sendable (Int) throws -> Void)]
    ) {
        self.store = store
        self.logger = logger
        self.refreshers = refreshers
        seen = Mutex(baseline)
    }

    /// Whether the store answered recently (a shared store that stopped answering makes the instance not ready).
    var isReachable: Bool {
        ContinuousClock.now - lastReached.withLock { $0 } < StoreFollower.unreachableAfter
    }

    /// Catches up once, then probes on a timer thread and refreshes on another.
    func start() {
        refreshing.store(true, ordering: .releasing)
        poll()
        refreshMoved()
        // Once a probe failed and `/readyz` says the store is lost, other calls stop waiting on it; this poll goes
        // on probing it. A probe that failed: not only the time since the last one that got through, which a poll
        // busy with its refreshers (a large route reload, a hub waiting on its lock) also lets grow.
        store.failFast { [weak self] in
            guard let self else { return false }
            return failing.load(ordering: .relaxed) && !isReachable
        }
        let timer = DeadlineTimer(name: "linkserver-store-follower") { [self] now in
            poll()
            return now + StoreFollower.interval
        }
        self.timer.withLock { $0 = timer }
        let refresher = Thread { [self] in refreshWhileRunning() }
        refresher.name = "linkserver-store-refresh"
        refresher.start()
        timer.start()
    }

    func stop() {
        timer.withLock { $0 }?.stop()
        if refreshing.exchange(false, ordering: .acquiringAndReleasing) {
            refreshWake.signal()
            refresherEnded.wait()
        }
        // Stopped, it no longer knows: calls made after this (a stop's last writes) are tried.
        store.failFast { false }
    }

    /// Runs `work` (on a thread of Dispatch's) after the next probe that reaches the store: what must follow a
    /// reconnect of the listening connection, whose own connection may come back before the pool's, so that the work
    /// would fail and be lost.
    func afterNextReach(_ work: @escaping @Sendable () -> Void) {
        afterReach.withLock { $0.append(work) }
        pollSoon()
    }

    /// Polls now rather than at the next tick (a notification announced a change).
    func pollSoon() {
        timer.withLock { $0 }?.schedule(.now)
    }

    /// Reads the revisions (the probe); wakes the refreshing thread when one moved.
    func poll() {
        let revisions: [SharedTable: Int]
        do {
            revisions = try store.probeRevisions()
        } catch {
            if !failing.exchange(true, ordering: .relaxed) {
                // The error itself is `unavailable`; the store finds what the database or the network says, off
                // this thread (a connection attempt may take its whole timeout).
                DispatchQueue.global().async { [store, logger] in
                    logger.error(
                        "shared store unreachable; serving the last state",
                        metadata: ["error": "\(error)", "cause": "\(store.diagnoseUnreachable() ?? "unknown")"])
                }
            }
            let renew = lastRenewal.withLock { last in
                guard ContinuousClock.now - last >= StoreFollower.renewInterval else { return false }
                last = .now
                return true
            }
            if renew { store.reconnect() }
            return
        }
        lastReached.withLock { $0 = .now }
        lastRenewal.withLock { $0 = .now }
        if failing.exchange(false, ordering: .relaxed) { logger.notice("shared store reachable again") }
        latest.withLock { $0 = revisions }
        if hasMoved() { refreshWake.signal() }
        let due = afterReach.withLock { pending in
            defer { pending = [] }
            return pending
        }
        // Off this thread: the work reads the store too (a hub catching up after its listener reconnected), and a
        // read stuck on a dead connection must not hold the probes.
        for work in due { DispatchQueue.global().async(execute: work) }
    }

    /// Whether a table with a refresher moved since its last refresh, as the last probe read the revisions.
    private func hasMoved() -> Bool {
        guard let revisions = latest.withLock({ $0 }) else { return false }
        let known = seen.withLock { $0 }
        return refreshers.contains { revisions[$0.0] != known[$0.0] }
    }

    /// The refreshing thread: refreshes what moved when a probe says so, and every second anyway (a refresh that
    /// failed is tried again). A wake-up that comes during a refresh is kept by the semaphore: what a probe found
    /// meanwhile is refreshed at once after it.
    private func refreshWhileRunning() {
        while refreshing.load(ordering: .acquiring) {
            _ = refreshWake.wait(timeout: .now() + .seconds(1))
            // The probes that found the same move during a long refresh ask once.
            while refreshWake.wait(timeout: .now()) == .success {}
            guard refreshing.load(ordering: .acquiring) else { break }
            refreshMoved()
        }
        refresherEnded.signal()
    }

    /// Refreshes every table whose revision, as the last probe read it, moved since its last refresh. On the
    /// refreshing thread (and once at start, before the instance is ready).
    private func refreshMoved() {
        guard let revisions = latest.withLock({ $0 }) else { return }
        let known = seen.withLock { $0 }
        for (table, refresh) in refreshers where revisions[table] != known[table] {
            // A stop does not wait for every table, one stuck read each.
            guard refreshing.load(ordering: .acquiring) else { return }
            do {
                try refresh(revisions[table] ?? 0)
                seen.withLock { $0[table] = revisions[table] }
            } catch {
                logger.error(
                    "refresh from the shared store failed",
                    metadata: ["table": "\(table.rawValue)", "error": "\(error)"])
            }
        }
    }
}
