import HeapModule
import LinkCore
import Synchronization

/// The live presentation slots (API.md §11): a ``LiveState`` of what each slot shows.
///
/// A change is computed by ``SlotRule`` from the published slots, committed to the store with its `slotChanged`
/// events (conditional on what the slot showed, so presents into one slot are serialised across instances, API.md
/// §12; the embedded store's journal delivers the events once committed), published, then announced (metrics) in
/// the same serial order, so the answers and the events agree and an acknowledged change survives `kill -9`. A read
/// is a lookup in the published snapshot. A timer ends presentations at their `expires` without any request.
final class SlotBoard: Sendable {
    private struct Expiry: Comparable {
        let at: Int64
        let slot: String
        static func < (a: Expiry, b: Expiry) -> Bool { a.at < b.at }
    }

    private typealias Slots = [String: Presentation]

    private let state: LiveState<Slots>
    /// When shown presentations end, possibly stale (a slot changed since): checked against the state when due, and
    /// dropped together once they outnumber the slots (see ``queue(_:)``).
    private let expiries: Mutex<Heap<Expiry>>
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
        // The store keeps no revision per slot table: another instance's change shows as different slots.
        state = LiveState(slots, revision: 0) { current in
            let stored = try store.loadSlots()
            return stored == current.value ? nil : .init(stored, revision: current.revision + 1)
        }
        expiries = Mutex(Heap(SlotBoard.expiries(of: slots)))
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
        return state.value[slot].flatMap { $0.isExpired(at: now) ? nil : $0 }
    }

    var count: Int { state.value.count }

    /// Re-reads every slot from the store (another instance changed one) and publishes them. Events for those
    /// changes were emitted by the instance that made them.
    func refresh() throws {
        try state.refresh()
        // Queued even when this refresh found nothing newer: a write refused as stale publishes what other instances
        // committed itself (``LiveState/write(_:)``), and this board queues nothing then. Added to the queue, whose
        // rebuild (``queue(_:)``) keeps it within twice the slots.
        let slots = state.value
        queue(SlotBoard.expiries(of: slots))
        if let next = slots.values.map(\.expires).min() {
            timer.withLock { $0 }?.schedule(ContinuousClock.now + .milliseconds(max(0, next - clock())))
        }
    }

    /// Offers a presentation to `slot`.
    func present(_ slot: String, id: String, priority: Int, payload: JSONValue, ttl: Int) throws -> SlotRule.Change {
        try change(slot) { current, now in
            let offered = Presentation(
                id: id, priority: priority, payload: payload, since: now, expires: now + Int64(ttl) * 1000)
            return SlotRule.present(offered, over: current)
        }
    }

    /// Dismisses `id` from `slot` when it is the one showing.
    func dismiss(_ slot: String, id: String) throws -> SlotRule.Change {
        try change(slot) { current, _ in SlotRule.dismiss(id, from: current) }
    }

    /// Ends every presentation that is over; answers when the next one ends, as a timer deadline.
    @discardableResult
    func expireDue() -> ContinuousClock.Instant? {
        let now = clock()
        // Looked at and taken in one step: a rebuilt queue (``queue(_:)``) may have another entry first.
        while let due = expiries.withLock({ heap -> Expiry? in
            guard let first = heap.min, first.at <= now else { return nil }
            return heap.popMin()
        }) {
            do {
                _ = try change(due.slot) { _, _ in nil }
            } catch {
                // The store refused the change: try again on the next tick rather than lose the expiry.
                queue([due])
                return ContinuousClock.now + .seconds(1)
            }
        }
        guard let next = expiries.withLock({ $0.min }) else { return nil }
        return ContinuousClock.now + .milliseconds(max(0, next.at - now))
    }

    /// Entries in the expiry queue (stale ones included); for tests.
    var queuedExpiries: Int { expiries.withLock { $0.count } }

    /// Queues expiries. An entry goes stale when its slot changes (a dismiss, a replacement, an update) and would
    /// otherwise stay until it came due, up to a day later (the longest `ttl`): a busy slot would cost memory per
    /// present. So once the queue holds more than twice the slots (and more than a few), it is rebuilt from the
    /// published slots. That loses nothing: every entry is queued after its presentation is published (or, on a
    /// refused expiry, while it still is), so the published slots hold every presentation still to end.
    private func queue(_ added: [Expiry]) {
        expiries.withLock { heap in
            for expiry in added { heap.insert(expiry) }
            guard heap.count > SlotBoard.compactionFloor else { return }
            let slots = state.value
            guard heap.count > 2 * slots.count else { return }
            heap = Heap(SlotBoard.expiries(of: slots))
        }
    }

    /// When each of `slots`' presentations ends.
    private static func expiries(of slots: Slots) -> [Expiry] {
        slots.map { Expiry(at: $0.value.expires, slot: $0.key) }
    }

    /// The queue's size under which stale entries are left to come due.
    static let compactionFloor = 64

    /// Changes `slot`: ends what it shows if that is over, then applies `decide` (nil: nothing more) to what is
    /// left, as one commit from what the store holds to the result. Answers `decide`'s change, or the expiry.
    private func change(
        _ slot: String, _ decide: @escaping (Presentation?, Int64) -> SlotRule.Change?
    ) throws -> SlotRule.Change {
        // A change is committed conditionally on the slot as the store holds it, so one decided on a stale slot
        // is refused and decided again. An outcome that commits nothing (`not_current`, a refused present) meets
        // no such check: with a shared store it is decided again on what other instances committed meanwhile.
        // Its metrics wait until it is known whether it stands (an outcome decided again is counted once).
        guard store.isShared else { return try change(slot, decide, announcingUnchanged: true).result }
        let first = try change(slot, decide, announcingUnchanged: false)
        guard first.changedNothing else { return first.result }
        // Decided again whether or not this refresh finds anything newer: the store follower may have published
        // what another instance committed between the first decision and now (then the refresh finds nothing, and
        // the first decision was made on the copy before it). The first outcome is not announced.
        try refresh()
        return try change(slot, decide, announcingUnchanged: true).result
    }

    /// One decision and commit, and whether it changed nothing. An outcome that changes nothing is announced only
    /// when `announcingUnchanged`.
    private func change(
        _ slot: String, _ decide: @escaping (Presentation?, Int64) -> SlotRule.Change?, announcingUnchanged: Bool
    ) throws -> (result: SlotRule.Change, changedNothing: Bool) {
        var changedNothing = false
        let result = try state.write { snapshot in
            let now = clock()
            let stored = snapshot.value[slot]
            let expired = SlotRule.expire(stored, now: now)
            let live = expired == nil ? stored : nil
            let decided = decide(live, now)
            let after = decided.map { $0.current(before: live) } ?? live
            // The change's events are committed with it: stored in its transaction when events live in the store's
            // log (the shared store), or emitted and written with it by the embedded store's journal.
            let time = WallClock.rfc3339Now()
            let told = [expired, decided].compactMap { $0 }.compactMap { SlotBoard.event(of: $0, in: slot) }
            let committedByHub = hub.commitsSlotChanges
            let events = try committedByHub ? [] : told.compactMap { try hub.storedEvent($0, extra: $1, time: time) }
            let emits = events.isEmpty && !committedByHub
            let announcement = { [self] in
                if let expired { announce(expired, in: slot, emit: emits, time: time) }
                if let decided { announce(decided, in: slot, emit: emits, time: time) }
                if let after, decided?.reason != nil {
                    queue([Expiry(at: after.expires, slot: slot)])
                    timer.withLock { $0 }?.schedule(ContinuousClock.now + .milliseconds(max(0, after.expires - now)))
                }
            }
            let result = decided ?? expired ?? .notCurrent
            guard expired != nil || decided?.reason != nil else {
                changedNothing = true
                return .init(
                    unchanged: snapshot.value, result: result, announce: announcingUnchanged ? announcement : nil)
            }
            var slots = snapshot.value
            slots[slot] = after
            return .init(
                slots, result: result,
                commit: { [store, hub] in
                    if committedByHub {
                        try hub.commitSlot(slot, after, told: told.map { (location: $0, extra: $1) }, time: time)
                    } else {
                        try store.saveSlot(slot, after, replacing: stored, appending: events)
                    }
                    return snapshot.revision + 1
                }, announce: announcement)
        }
        return (result, changedNothing)
    }

    /// The `slotChanged` event of a change that changed the slot (its location and `extra`), or `nil`.
    private static func event(of change: SlotRule.Change, in slot: String) -> (Location, JSONValue)? {
        guard let reason = change.reason else { return nil }
        let extra: JSONValue = [
            "current": change.current(before: nil).map { $0.json() } ?? .null,
            "replaced": change.ended?.json() ?? .null, "reason": .string(reason),
        ]
        return (Location(segments: ["slots", slot], query: Query([])), extra)
    }

    /// The metrics of every outcome, and the `slotChanged` event of a change that changed the slot when it was not
    /// stored with the change (`emit`: events are delivered in this process).
    private func announce(_ change: SlotRule.Change, in slot: String, emit: Bool, time: String) {
        defer { onChange(change) }
        guard emit, let (location, extra) = SlotBoard.event(of: change, in: slot) else { return }
        _ = try? hub.emit(location, extra: extra, time: time)
    }
}
