import HeapModule
import LinkCore
import Synchronization

/// The live presentation slots (API.md §11): what each slot shows, changed by one writer at a time.
///
/// A change is computed by ``SlotRule``, committed to the store, then published (the in-memory map and the
/// `slotChanged` event) while the writer lock is held, so the answers and the events follow one serial order and
/// an acknowledged change survives `kill -9`. Reads take the map's lock only for a dictionary lookup. A timer
/// ends presentations at their `expires` without any request.
final class SlotBoard: Sendable {
    private struct Expiry: Comparable {
        let at: Int64
        let slot: String
        static func < (a: Expiry, b: Expiry) -> Bool { a.at < b.at }
    }

    private struct State {
        var slots: [String: Presentation]
        /// Expiry instants, possibly stale (a slot changed since): checked against `slots` when due.
        var expiries: Heap<Expiry>
    }

    private let state: Mutex<State>
    /// Serialises compute → commit → publish.
    private let writes = Mutex(())
    private let store: any Store
    private let hub: any EventHub
    private let clock: @Sendable () -> Int64
    private let onChange: @Sendable (SlotRule.Change) -> Void
    private let timer = Mutex<DeadlineTimer?>(nil)

    /// Loads the slots; call ``start()`` to empty those that expired while the service was down and to run the
    /// expiry timer. `onChange` sees every outcome (for metrics).
    init(
        store: any Store, hub: any EventHub, clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds,
        onChange: @escaping @Sendable (SlotRule.Change) -> Void = { _ in }
    ) throws {
        let slots = try store.loadSlots()
        state = Mutex(State(slots: slots, expiries: Heap(slots.map { Expiry(at: $0.value.expires, slot: $0.key) })))
        self.store = store
        self.hub = hub
        self.clock = clock
        self.onChange = onChange
    }

    /// Ends what expired while the service was down, then starts the expiry timer.
    func start() {
        _ = expireDue()
        let timer = DeadlineTimer(name: "linkserver-slot-timer") { [self] _ in expireDue() }
        self.timer.withLock { $0 = timer }
        timer.start()
    }

    func stop() {
        timer.withLock { $0 }?.stop()
    }

    /// What `slot` shows now (`nil` when empty or over).
    func current(_ slot: String) -> Presentation? {
        let now = clock()
        return state.withLock { $0.slots[slot] }.flatMap { $0.isExpired(at: now) ? nil : $0 }
    }

    var count: Int { state.withLock { $0.slots.count } }

    /// Re-reads every slot from the store (another instance changed one) and publishes them. Events for those
    /// changes were emitted by the instance that made them.
    func refresh() throws {
        try writes.withLock { _ in
            let slots = try store.loadSlots()
            state.withLock { state in
                state.slots = slots
                state.expiries = Heap(slots.map { Expiry(at: $0.value.expires, slot: $0.key) })
            }
            if let next = slots.values.map(\.expires).min() {
                timer.withLock { $0 }?.schedule(ContinuousClock.now + .milliseconds(max(0, next - clock())))
            }
        }
    }

    /// Runs a change of `slot`; when another instance changed the slot first (API.md §12), re-reads it and runs the
    /// change again on what it shows now, so presents into one slot are serialised across instances.
    private func serialised(_ slot: String, _ change: () throws -> SlotRule.Change) throws -> SlotRule.Change {
        try writes.withLock { _ in
            for _ in 0..<7 {
                do {
                    return try change()
                } catch is StoreConflict {
                    let stored = try store.loadSlots()[slot]
                    state.withLock { state in
                        state.slots[slot] = stored
                        if let stored { state.expiries.insert(Expiry(at: stored.expires, slot: slot)) }
                    }
                }
            }
            return try change()
        }
    }

    /// Offers a presentation to `slot`.
    func present(_ slot: String, id: String, priority: Int, payload: JSONValue, ttl: Int) throws -> SlotRule.Change {
        try serialised(slot) {
            let now = clock()
            let current = try live(slot, now: now)
            let offered = Presentation(
                id: id, priority: priority, payload: payload, since: now, expires: now + Int64(ttl) * 1000)
            let change = SlotRule.present(offered, over: current)
            try apply(change, to: slot, before: current)
            if let shown = change.current(before: current), change.reason != nil {
                timer.withLock { $0 }?.schedule(ContinuousClock.now + .milliseconds(shown.expires - now))
            }
            return change
        }
    }

    /// Dismisses `id` from `slot` when it is the one showing.
    func dismiss(_ slot: String, id: String) throws -> SlotRule.Change {
        try serialised(slot) {
            let current = try live(slot, now: clock())
            let change = SlotRule.dismiss(id, from: current)
            try apply(change, to: slot, before: current)
            return change
        }
    }

    /// Ends every presentation that is over; answers when the next one ends, as a timer deadline.
    @discardableResult
    func expireDue() -> ContinuousClock.Instant? {
        writes.withLock { _ in
            let now = clock()
            while let due = state.withLock({ $0.expiries.min }), due.at <= now {
                _ = state.withLock { $0.expiries.popMin() }
                do {
                    _ = try live(due.slot, now: now)
                } catch {
                    // The store refused the change: try again on the next tick rather than lose the expiry.
                    state.withLock { $0.expiries.insert(due) }
                    return ContinuousClock.now + .seconds(1)
                }
            }
            guard let next = state.withLock({ $0.expiries.min }) else { return nil }
            return ContinuousClock.now + .milliseconds(max(0, next.at - now))
        }
    }

    /// What `slot` shows at `now`, ending (committing and publishing) a presentation that is over.
    private func live(_ slot: String, now: Int64) throws -> Presentation? {
        let current = state.withLock { $0.slots[slot] }
        guard let expired = SlotRule.expire(current, now: now) else { return current }
        try apply(expired, to: slot, before: current)
        return nil
    }

    /// Commits and publishes a change (nothing when it changes nothing).
    private func apply(_ change: SlotRule.Change, to slot: String, before: Presentation?) throws {
        defer { onChange(change) }
        guard let reason = change.reason else { return }
        let after = change.current(before: before)
        try store.saveSlot(slot, after, replacing: before)
        state.withLock { state in
            state.slots[slot] = after
            if let after { state.expiries.insert(Expiry(at: after.expires, slot: slot)) }
        }
        let extra: JSONValue = [
            "current": after?.json() ?? .null, "replaced": change.ended?.json() ?? .null, "reason": .string(reason),
        ]
        _ = try? hub.emit(
            Location(segments: ["slots", slot], query: Query([])), extra: extra, time: WallClock.rfc3339Now())
    }
}
