import LinkCore
import Logging
import OrderedCollections
import Synchronization

/// Click statistics, counted in memory and written in batches off the request path (API.md §8).
///
/// A click adds to an in-memory counter (one dictionary update under a lock); a timer writes the counters to the
/// store once a second in one transaction, and ``stop()`` writes what is left, so a clean shutdown loses nothing
/// and a crash at most the last second. What a stop cannot write (a shared store out of reach) is kept in the data
/// folder (``KeptClicks``) and written by the next start. Reads sum the stored rows and the counters not yet
/// written.
final class ClickLedger: Sendable {
    /// Counters not yet written, with the route name last seen for each, oldest key first, and their total.
    struct Pending {
        var counters: OrderedDictionary<ClickKey, (name: String?, count: Int)> = [:]
        var total = 0
        /// Clicks dropped since the last report.
        var dropped = 0
    }

    private let pending = Mutex(Pending())
    /// At most this many clicks wait in memory (API.md §12 `links.bufferedClicks`); beyond, the oldest are dropped.
    private let limit: Int
    /// Held while a batch moves from memory to the store, so a read never sees it in neither place.
    private let moving = Mutex(())
    private let store: any Store
    private let logger: Logger
    private let timer = Mutex<DeadlineTimer?>(nil)
    static let interval = Duration.seconds(1)
    /// The stored counters of the ranges read last, newest last, to answer from while a shared store is unreachable
    /// (API.md §12: reads keep working from the last state). At most ``rangesKept`` ranges, each of at most
    /// ``rowsKept`` counters.
    private let lastRead = Mutex<[(range: DayRange, counts: [ClickCount])]>([])
    static let rangesKept = 8
    static let rowsKept = 50_000
    /// Whether the store can be read now (a shared store that stopped answering cannot): when not, a read is
    /// answered from the last state at once, rather than after the store's timeout.
    private let storeReachable: @Sendable () -> Bool
    /// Where a stop keeps the counts the store did not take, for the next start; `nil`: nowhere (they are lost).
    private let kept: KeptClicks?

    init(
        store: any Store, logger: Logger, limit: Int = 100_000, kept: KeptClicks? = nil,
        storeReachable: @escaping @Sendable () -> Bool = { true }
    ) {
        self.store = store
        self.logger = logger
        self.limit = limit
        self.kept = kept
        self.storeReachable = storeReachable
    }

    /// Writes what earlier stops kept (``KeptClicks``) to the store, in one batch, before anything is served; the
    /// file goes once they are stored, and stays for the next start when they are not.
    func takeKept() {
        guard let kept else { return }
        do {
            let clicks = try kept.take { counts in try store.addClickCounts(counts) }
            guard clicks > 0 else { return }
            logger.info(
                "click statistics kept by an earlier stop are written",
                metadata: ["clicks": "\(clicks)", "file": "\(kept.path)"])
        } catch {
            logger.error(
                "click statistics kept by an earlier stop not written; the file stays for the next start",
                metadata: ["file": "\(kept.path)", "error": "\(error)"])
        }
    }

    /// Counts one request.
    func record(_ key: ClickKey, name: String?) {
        pending.withLock { pending in pending.add(key, name: name, count: 1, limit: limit) }
    }

    /// Adds `count` to an entry; `name`, when set, replaces the name last seen.
    static func add(_ count: Int, name: String?, to entry: inout (name: String?, count: Int)) {
        entry.count += count
        if let name { entry.name = name }
    }

    /// Starts the writer.
    func start() {
        let timer = DeadlineTimer(name: "linkserver-click-writer") { [self] now in
            flush()
            return now + ClickLedger.interval
        }
        self.timer.withLock { $0 = timer }
        timer.start()
    }

    /// Stops the writer and writes what is left.
    func stop() {
        timer.withLock { $0 }?.stop()
        flush()
        // The store could not take them (a shared store out of reach at the stop, a full disk): kept in the data
        // folder for the next start, or, when that fails too, said as lost.
        let (total, counters) = pending.withLock { ($0.total, $0.counters) }
        guard total > 0 else { return }
        if let kept {
            do {
                try kept.add(counters.map { ClickCount(key: $0.key, name: $0.value.name, count: $0.value.count) })
                // Kept there, not here too: a second stop, or a late flush, would count them twice.
                pending.withLock { $0 = Pending() }
                logger.warning(
                    "click statistics not written at stop; kept for the next start",
                    metadata: ["clicks": "\(total)", "file": "\(kept.path)"])
                return
            } catch {
                logger.error("click statistics not kept for the next start", metadata: ["error": "\(error)"])
            }
        }
        logger.error("click statistics not written at stop; these clicks are lost", metadata: ["clicks": "\(total)"])
    }

    /// Writes the pending counters in one transaction; on failure they stay pending for the next try. While a shared
    /// store is known to be out of reach nothing is tried: each try would wait out the store's timeout (10 s), and a
    /// stop (``stop()``) during an outage took 10–20 s to keep the counts, past a supervisor's usual kill timer.
    func flush() {
        moving.withLock { _ in
            let reachable = storeReachable()
            let (batch, dropped) = pending.withLock { pending in
                let taken = (reachable ? pending.counters : [:], pending.dropped)
                if reachable { pending = Pending() } else { pending.dropped = 0 }
                return taken
            }
            if dropped > 0 {
                logger.error(
                    "click statistics buffer full; oldest clicks dropped",
                    metadata: ["dropped": "\(dropped)", "links.bufferedClicks": "\(limit)"])
            }
            guard !batch.isEmpty else { return }
            do {
                let written = batch.map { ClickCount(key: $0.key, name: $0.value.name, count: $0.value.count) }
                try store.addClickCounts(written)
                // What is stored now: the counters last read, kept for an outage, include it.
                lastRead.withLock { reads in
                    for index in reads.indices {
                        let range = reads[index].range
                        reads[index].counts += written.lazy.filter { range.contains($0.key.day) }
                    }
                }
            } catch {
                logger.error("click statistics write failed; kept for the next try", metadata: ["error": "\(error)"])
                // Back in front of what came meanwhile: they are the oldest.
                pending.withLock { pending in
                    var merged = Pending()
                    for (key, value) in batch { merged.add(key, name: value.name, count: value.count, limit: .max) }
                    for (key, value) in pending.counters {
                        merged.add(key, name: value.name, count: value.count, limit: .max)
                    }
                    merged.dropped = pending.dropped
                    merged.trim(to: limit)
                    pending = merged
                }
            }
        }
    }

    /// Every counter in `range`: the stored ones and those not yet written. While a shared store is unreachable, the
    /// stored ones are those last read for a range that holds `range` (none kept: `unavailable`).
    func counts(in range: DayRange) throws -> [ClickCount] {
        try moving.withLock { _ in
            var counts: [ClickCount]
            do {
                guard storeReachable() else { throw LinkError.storeUnreachable }
                counts = try store.loadClickCounts(from: range.from, to: range.to)
                remember(counts, of: range)
            } catch let error as LinkError where error.code == .unavailable {
                let kept = lastRead.withLock { reads in
                    reads.last { $0.range.from <= range.from && range.to <= $0.range.to }
                }
                guard let kept else { throw error }
                counts = kept.counts.filter { range.contains($0.key.day) }
            }
            for (key, value) in pending.withLock({ $0.counters }) where range.contains(key.day) {
                counts.append(ClickCount(key: key, name: value.name, count: value.count))
            }
            return counts
        }
    }

    private func remember(_ counts: [ClickCount], of range: DayRange) {
        // Only a shared store can be lost; a kept range grows by what is written until it is read again.
        guard store.isShared, counts.count <= ClickLedger.rowsKept else { return }
        lastRead.withLock { reads in
            reads.removeAll { $0.range == range }
            reads.append((range, counts))
            if reads.count > ClickLedger.rangesKept { reads.removeFirst() }
        }
    }
}

extension ClickLedger.Pending {
    /// Adds `count` clicks of `key`, then drops the oldest beyond `limit`.
    mutating func add(_ key: ClickKey, name: String?, count: Int, limit: Int) {
        // One hash of the key: the entry is updated in place.
        ClickLedger.add(count, name: name, to: &counters[key, default: (nil, 0)])
        total += count
        if total > limit { trim(to: limit) }
    }

    /// Drops the oldest clicks until at most `limit` are kept.
    mutating func trim(to limit: Int) {
        while total > limit, let first = counters.elements.first {
            let excess = min(total - limit, first.value.count)
            dropped += excess
            total -= excess
            if excess == first.value.count {
                counters.removeFirst()
            } else {
                counters.values[0].count -= excess
            }
        }
    }
}
