import LinkTestSupport
import Synchronization
import Testing

@testable import LinkCore

/// `missed` (API.md §5): the dropped events newer than the acknowledgement, exactly, however many were dropped
/// between two polls, whether the stream is the bus's every `seq` or a few of them, and across lost answers.
@Suite struct MissedCountTests {
    let t0 = ContinuousClock.now

    func poll(_ bus: EventBus, _ id: String, after: Int?) throws -> PollResult {
        guard case .ready(let result) = try bus.poll(id, after: after, wait: .zero, now: t0, complete: { _ in }) else {
            throw LinkError(.internal, "a poll without wait answers at once")
        }
        return result
    }

    /// A consumer that lags steadily: each round more events come than the queue holds, including the ones the
    /// last answer handed out; acknowledging that answer leaves exactly the round's new drops (more than the
    /// runs kept, which once merged old drops into new ones and over-counted by the whole queue each round).
    @Test(arguments: [(queueLimit: 3, perRound: 67), (queueLimit: 50, perRound: 400), (queueLimit: 1, perRound: 200)])
    func aLaggingConsumerIsToldOnlyOfTheNewDrops(queueLimit: Int, perRound: Int) throws {
        let bus = EventBus(limits: .init(queueLimit: queueLimit))
        let id = try bus.subscribe([EventTypeRequest(path: "/e")], ttl: .seconds(300), now: t0).id
        var cursor: Int?
        for round in 0..<5 {
            for _ in 0..<perRound { try bus.emit(try Location("/e"), extra: nil, time: "t") }
            let answer = try poll(bus, id, after: cursor)
            // Round 0 drops all but the queue; later rounds also drop the whole previous answer, acknowledged.
            #expect(answer.missed == perRound - queueLimit, "round \(round)")
            #expect(answer.events.count == queueLimit)
            cursor = answer.cursor
        }
        #expect(try poll(bus, id, after: cursor).missed == 0)
    }

    /// Against an exact model: random emits to the subscription's type and to another one (so its events are
    /// some of the bus's `seq`s, not all), random polls that acknowledge the last cursor or retry an older one
    /// (a lost answer), for fewer unacknowledged answers than the runs kept.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func matchesAnExactCountUnderLostAnswers(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let queueLimit = Int(random.next(below: 8)) + 1
        let bus = EventBus(limits: .init(queueLimit: queueLimit))
        let id = try bus.subscribe([EventTypeRequest(path: "/e")], ttl: .seconds(300), now: t0).id
        _ = try bus.register(EventTypeRequest(path: "/other"))
        var queued: [Int] = []
        var dropped: [Int] = []
        var acknowledged = 0
        var handed: [Int] = []
        for step in 0..<600 {
            if random.next(below: 3) > 0 {
                // Mostly a few events, sometimes a burst of more than the runs kept.
                let burst = random.next(below: 5) == 0 ? 50 + Int(random.next(below: 250)) : 1
                for _ in 0..<burst {
                    let toSubscription = random.next(below: 3) > 0
                    let seq = try bus.emit(try Location(toSubscription ? "/e" : "/other"), extra: nil, time: "t").seq
                    guard toSubscription else { continue }
                    queued.append(seq)
                    if queued.count > queueLimit { dropped.append(queued.removeFirst()) }
                }
                continue
            }
            // Mostly the last cursor; sometimes one of the few before it (its answer was lost), or none.
            let choice = random.next(below: 10)
            let after: Int? =
                handed.isEmpty || choice == 0
                ? nil : choice < 7 ? handed.last : handed[max(0, handed.count - 1 - Int(random.next(below: 4)))]
            if let after, after > acknowledged {
                acknowledged = after
                queued.removeAll { $0 <= after }
                dropped.removeAll { $0 <= after }
            }
            let answer = try poll(bus, id, after: after)
            #expect(answer.missed == dropped.count, "seed \(seed), step \(step)")
            #expect(answer.events.map(\.seq) == queued, "seed \(seed), step \(step)")
            handed.append(answer.cursor)
            if handed.count > 8 { handed.removeFirst() }
        }
    }

    /// An acknowledgement inside a stretch of drops, with a `seq` the client had received (it handled part of an
    /// answer, then polled): the drops up to it are acknowledged, exactly, when the stretch has every `seq`.
    @Test func aPartialAcknowledgementCountsExactly() throws {
        let bus = EventBus(limits: .init(queueLimit: 100))
        let id = try bus.subscribe([EventTypeRequest(path: "/e")], ttl: .seconds(300), now: t0).id
        for _ in 0..<100 { try bus.emit(try Location("/e"), extra: nil, time: "t") }
        let first = try poll(bus, id, after: nil)
        // 350 more: the 100 handed out and 250 unseen are dropped.
        for _ in 0..<350 { try bus.emit(try Location("/e"), extra: nil, time: "t") }
        let seqs = first.events.map(\.seq)
        #expect(try poll(bus, id, after: seqs[49]).missed == 300)
        #expect(try poll(bus, id, after: first.cursor).missed == 250)
        #expect(try poll(bus, id, after: first.cursor + 100).missed == 150)
    }

    /// API.md §5: a poll answers the events newer than `after`, whether or not a poll handed `after` out: a client
    /// that takes an emit's `seq` for its cursor skips the events up to it (they were answered again before, and
    /// the shared store answered this way already). The dropped ones up to it are acknowledged too.
    @Test func anAfterFromAnEmitsSeqAcknowledgesThroughIt() throws {
        let bus = EventBus(limits: EventBus.Limits(queueLimit: 2))
        let id = try bus.subscribe([EventTypeRequest(path: "/e")], ttl: .seconds(300), now: t0).id
        let seqs = try (0..<4).map { _ in try bus.emit(try Location("/e"), extra: nil, time: "t").seq }
        // The first two were dropped (a queue of two): `missed` 2 until acknowledged.
        #expect(try bus.peek(id, after: seqs[2]).events.map(\.seq) == [seqs[3]])
        #expect(try bus.peek(id, after: seqs[2]).missed == 0)
        #expect(try bus.peek(id, after: seqs[0]).missed == 1)
        let answer = try poll(bus, id, after: seqs[2])
        #expect(answer.events.map(\.seq) == [seqs[3]])
        #expect(answer.missed == 0)
        #expect(answer.cursor == seqs[3])
        // Acknowledging everything: an empty answer whose cursor is the client's, not an older one.
        let empty = try poll(bus, id, after: seqs[3])
        #expect(empty.events.isEmpty && empty.cursor == seqs[3])
    }

    /// An `after` taken from an emit of another type (never handed to this subscription): the answer's cursor is at
    /// least that `after`, waiting or not, as with the shared store.
    @Test func anAnswersCursorIsNotBelowTheClientsAfter() throws {
        let bus = EventBus()
        let id = try bus.subscribe([EventTypeRequest(path: "/e")], ttl: .seconds(300), now: t0).id
        _ = try bus.subscribe([EventTypeRequest(path: "/other")], ttl: .seconds(300), now: t0)
        let other = try bus.emit(try Location("/other"), extra: nil, time: "t").seq
        let answer = try poll(bus, id, after: other)
        #expect(answer.events.isEmpty && answer.cursor == other)
        // A waiting poll released by a second one with that `after`: the released answer's cursor too.
        let released = Mutex<PollResult?>(nil)
        guard
            case .waiting = try bus.poll(
                id, after: 0, wait: .seconds(30), now: t0,
                complete: { result in
                    released.withLock { $0 = result }
                })
        else { throw LinkError(.internal, "nothing queued: the poll waits") }
        #expect(try poll(bus, id, after: other).cursor == other)
        #expect(released.withLock { $0 }?.cursor == other)
    }

    /// An `after` past every `seq` the bus has handed out (a cursor kept across a reset, say) acknowledges only
    /// what this subscription was handed: later events are still delivered.
    @Test func anAfterPastTheCursorSwallowsNothingLater() throws {
        let bus = EventBus()
        let id = try bus.subscribe([EventTypeRequest(path: "/e")], ttl: .seconds(300), now: t0).id
        let first = try poll(bus, id, after: 999_999)
        #expect(first.events.isEmpty)
        let seq = try bus.emit(try Location("/e"), extra: nil, time: "t").seq
        let second = try poll(bus, id, after: 999_999)
        #expect(second.events.map(\.seq) == [seq])
        #expect(second.cursor == seq)
    }
}
