import Testing

@testable import LinkCore

/// What a store keeps of a subscription (``EventBus/snapshot(now:)``) brings it back in a new bus
/// (``EventBus/restore(_:now:)``) with its queue, its dropped count and its idle time (API.md §5 across restarts).
@Suite struct EventBusRestoreTests {
    let t0 = ContinuousClock.now

    func poll(_ bus: EventBus, _ id: String, after: Int?, at now: ContinuousClock.Instant? = nil) throws -> PollResult {
        guard case .ready(let result) = try bus.poll(id, after: after, wait: .zero, now: now ?? t0, complete: { _ in })
        else { throw LinkError(.internal, "a poll without wait answers at once") }
        return result
    }

    @Test func theSnapshotSaysWhatIsHeldAndWhatWasDropped() throws {
        let bus = EventBus(limits: .init(queueLimit: 2))
        let id = try bus.subscribe([EventTypeRequest(path: "/e/:n")], ttl: .seconds(60), now: t0).id
        #expect(
            bus.snapshot(now: t0) == [.init(id: id, cursor: 0, heldFrom: 1, missed: 0, idle: .zero, ttl: .seconds(60))])
        for n in 1...5 { try bus.emit(try Location("/e/\(n)"), extra: nil, time: "t") }
        // Events 1–3 were dropped; 4 and 5 are held, not handed out yet.
        #expect(
            bus.snapshot(now: t0 + .seconds(7))
                == [.init(id: id, cursor: 0, heldFrom: 4, missed: 3, idle: .seconds(7), ttl: .seconds(60), queued: 2)])
        // Listed below a `seq`: of 4 and 5, 4 is below 5.
        #expect(bus.snapshot(now: t0, below: 5).first?.heldBelow == [4])
        let answer = try poll(bus, id, after: nil, at: t0 + .seconds(8))
        #expect(answer.cursor == 5)
        _ = try poll(bus, id, after: 5, at: t0 + .seconds(9))
        // Everything acknowledged: nothing is held below the next `seq`.
        #expect(
            bus.snapshot(now: t0 + .seconds(10))
                == [.init(id: id, cursor: 5, heldFrom: 6, missed: 0, idle: .seconds(1), ttl: .seconds(60))])
    }

    /// An event committed before it is delivered (a slot's change): while it is committed, an empty queue is said to
    /// hold from its `seq` on, not past it, so that a store's sync then does not cut the event from its log.
    @Test func anEmptyQueueHoldsFromAnEventCommittedButNotYetDelivered() throws {
        let bus = EventBus(limits: .init(queueLimit: 10))
        let id = try bus.subscribe([EventTypeRequest(path: "/s/:n")], ttl: .seconds(60), now: t0).id
        var during: [EventBus.SubscriptionState] = []
        let results = try bus.emit([(try Location("/s/1"), nil)], time: "t", now: t0) { results in
            during = bus.snapshot(now: t0)
            #expect(results.map(\.seq) == [1])
        }
        #expect(during.first?.heldFrom == results.first?.seq)
        #expect(bus.snapshot(now: t0).first?.heldFrom == 1)
        _ = try poll(bus, id, after: 1)
        #expect(bus.snapshot(now: t0).first?.heldFrom == 2)
        // A commit that fails leaves nothing in flight.
        #expect(throws: LinkError.self) {
            try bus.emit([(try Location("/s/2"), nil)], time: "t", now: t0) { _ in
                throw LinkError(.unavailable, "disk")
            }
        }
        #expect(bus.snapshot(now: t0).first?.heldFrom == 3)
    }

    @Test func aRestoredSubscriptionAnswersAsItWouldHave() throws {
        let first = EventBus(limits: .init(queueLimit: 3))
        let id = try first.subscribe([EventTypeRequest(path: "/e/:n", name: "e")], ttl: .seconds(60), now: t0).id
        var emitted: [Event] = []
        for n in 1...5 {
            emitted += try first.emit(try Location("/e/\(n)?q=\(n)"), extra: ["n": .int(n)], time: "t").reached
        }
        let before = try poll(first, id, after: nil)
        // A new bus from what a store kept: the events read back from their bytes, two of them dropped before.
        let kept = try #require(first.snapshot(now: t0 + .seconds(20)).first)
        let second = EventBus(
            types: [EventType(pattern: try Pattern("/e/:n"), name: "e")], limits: .init(queueLimit: 3))
        let restored = try emitted.filter { $0.seq >= kept.heldFrom }.map { try Event.restoring($0.encoded) }
        second.restore(
            [
                .init(
                    id: id, patterns: [try Pattern("/e/:n")], ttl: .seconds(60), idle: kept.idle, cursor: kept.cursor,
                    missed: kept.missed, events: restored)
            ], now: t0 + .seconds(100))
        let after = try poll(second, id, after: nil, at: t0 + .seconds(100))
        #expect(after == before)
        #expect(after.events.map(\.encoded) == before.events.map(\.encoded))
        #expect(after.events.first?.parameters.first?.value == "3")
        #expect(after.events.first?.location.description == "/e/3?q=3")
        // Acknowledged through the last answer: the drops before it go too.
        #expect(try poll(second, id, after: after.cursor, at: t0 + .seconds(100)).missed == 0)
        // It still receives its type.
        #expect(try second.emit(try Location("/e/9"), extra: nil, time: "t").delivered == 1)
    }

    @Test func eventsPastTheLimitAreCountedAndTheIdleTimeCarriesOn() throws {
        // A restarted bus continues above every `seq` it handed out (API.md §5).
        let bus = EventBus(types: [EventType(pattern: try Pattern("/e"))], limits: .init(queueLimit: 2), lastSeq: 15)
        let source = EventBus(limits: .init(queueLimit: 10))
        _ = try source.subscribe([EventTypeRequest(path: "/e")], ttl: .seconds(60), now: t0)
        _ = try source.register(EventTypeRequest(path: "/x"))
        for _ in 1...10 { try source.emit(try Location("/x"), extra: nil, time: "t") }
        var events: [Event] = []
        for _ in 11...15 { events += try source.emit(try Location("/e"), extra: nil, time: "t").reached }
        bus.restore(
            [
                .init(
                    id: "a", patterns: [try Pattern("/e")], ttl: .seconds(10), idle: .seconds(9), cursor: 0, missed: 1,
                    events: events)
            ],
            now: t0)
        let answer = try poll(bus, "a", after: nil, at: t0)
        #expect(answer.events.map(\.seq) == [14, 15])
        #expect(answer.missed == 1 + 3)
        // An acknowledgement inside the drops kept from before the restart keeps them whole (errs towards more);
        // one past them clears them; the run dropped since counts exactly.
        #expect(try poll(bus, "a", after: 5, at: t0).missed == 4)
        #expect(try poll(bus, "a", after: 10, at: t0).missed == 3)
        #expect(try poll(bus, "a", after: 12, at: t0).missed == 1)
        #expect(try poll(bus, "a", after: 13, at: t0).missed == 0)
        // Idle for 9 s of its 10 before the restore: a second later it is gone.
        let other = EventBus(types: [EventType(pattern: try Pattern("/e"))])
        other.restore(
            [
                .init(
                    id: "b", patterns: [try Pattern("/e")], ttl: .seconds(10), idle: .seconds(9), cursor: 0, missed: 0,
                    events: [])
            ],
            now: t0)
        #expect(try other.peek("b", after: nil, now: t0 + .milliseconds(900)).events.isEmpty)
        #expect(throws: LinkError.self) { try other.peek("b", after: nil, now: t0 + .seconds(1)) }
    }

    @Test func aTypeNoLongerRegisteredIsLeftOutAndAnOpenIDIsNotReplaced() throws {
        let bus = EventBus(types: [EventType(pattern: try Pattern("/kept"))])
        let open = try bus.subscribe([EventTypeRequest(path: "/kept")], ttl: .seconds(60), now: t0).id
        bus.restore(
            [
                .init(
                    id: "r", patterns: [try Pattern("/kept"), try Pattern("/gone")], ttl: .seconds(60), idle: .zero,
                    cursor: 0, missed: 0, events: []),
                .init(id: open, patterns: [], ttl: .seconds(1), idle: .zero, cursor: 0, missed: 7, events: []),
            ], now: t0)
        #expect(bus.subscriptionCount == 2)
        #expect(try bus.emit(try Location("/kept"), extra: nil, time: "t").delivered == 2)
        #expect(try poll(bus, open, after: nil).missed == 0)
        #expect(throws: LinkError.self) { try bus.emit(try Location("/gone"), extra: nil, time: "t") }
    }

    /// A poll released at a stop ends then: its subscription's `ttl` counts from the stop, as from any answer (it
    /// counted from the poll's start, so a subscription whose `wait` was near its `ttl` expired across a restart).
    @Test func aReleasedPollEndsWhenReleased() throws {
        let bus = EventBus()
        let id = try bus.subscribe([EventTypeRequest(path: "/e")], ttl: .seconds(10), now: t0).id
        let outcome = try bus.poll(id, after: nil, wait: .seconds(60), now: t0, complete: { _ in })
        #expect(outcome == .waiting)
        bus.releaseAll(now: t0 + .seconds(9))
        #expect(bus.snapshot(now: t0 + .seconds(12)).first?.idle == .seconds(3))
        #expect(try bus.peek(id, after: nil, now: t0 + .seconds(18)).events.isEmpty)
    }

    /// A type's removal answers the last `seq` its subscriptions can have had of it and counts removals, which a
    /// subscription opened after it sees.
    @Test func removalsAreCountedAndOpenedSubscriptionsSeeTheCount() throws {
        let bus = EventBus()
        let before = try bus.open([EventTypeRequest(path: "/a")], ttl: .seconds(60), now: t0)
        #expect(before.removals == 0)
        #expect(before.types.map(\.pattern.description) == ["/a"])
        try bus.emit(try Location("/a"), extra: nil, time: "t")
        let removal = try bus.remove(pattern: try Pattern("/a"))
        #expect(removal.through == 1 && removal.removals == 1)
        #expect(try bus.open([EventTypeRequest(path: "/a")], ttl: .seconds(60), now: t0).removals == 1)
    }
}
