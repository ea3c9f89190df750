import LinkCore
import Logging
import Synchronization

/// Click statistics, counted in memory and written in batches off the request path (API.md §8).
///
/// A click adds to an in-memory counter (one dictionary update under a lock); a timer writes the counters to the
/// store once a second in one transaction, and ``stop()`` writes what is left, so a clean shutdown loses nothing
/// and a crash at most the last second. Reads sum the stored rows and the counters not yet written.
final class ClickLedger: Sendable {
    /// Counters not yet written, with the route name last seen for each.
    private let pending = Mutex<[ClickKey: (name: String?, count: Int)]>([:])
    /// Held while a batch moves from memory to the store, so a read never sees it in neither place.
    private let moving = Mutex(())
    private let store: any Store
    private let logger: Logger
    private let timer = Mutex<DeadlineTimer?>(nil)
    static let interval = Duration.seconds(1)

    init(store: any Store, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Counts one request.
    func record(_ key: ClickKey, name: String?) {
        pending.withLock { pending in
            // One hash of the key: the entry is updated in place.
            ClickLedger.add(1, name: name, to: &pending[key, default: (nil, 0)])
        }
    }

    /// Adds `count` to an entry; `name`, when set, replaces the name last seen.
    private static func add(_ count: Int, name: String?, to entry: inout (name: String?, count: Int)) {
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
    }

    /// Writes the pending counters in one transaction; on failure they stay pending for the next try.
    func flush() {
        moving.withLock { _ in
            let batch = pending.withLock { pending in
                defer { pending.removeAll(keepingCapacity: true) }
                return pending
            }
            guard !batch.isEmpty else { return }
            do {
                try store.addClickCounts(
                    batch.map { ClickCount(key: $0.key, name: $0.value.name, count: $0.value.count) })
            } catch {
                logger.error("click statistics write failed; kept for the next try", metadata: ["error": "\(error)"])
                pending.withLock { pending in
                    for (key, value) in batch {
                        let entry = pending[key]
                        pending[key] = (entry?.name ?? value.name, (entry?.count ?? 0) + value.count)
                    }
                }
            }
        }
    }

    /// Every counter in `range`: the stored ones and those not yet written.
    func counts(in range: DayRange) throws -> [ClickCount] {
        try moving.withLock { _ in
            var counts = try store.loadClickCounts(from: range.from, to: range.to)
            for (key, value) in pending.withLock({ $0 }) where range.contains(key.day) {
                counts.append(ClickCount(key: key, name: value.name, count: value.count))
            }
            return counts
        }
    }
}
