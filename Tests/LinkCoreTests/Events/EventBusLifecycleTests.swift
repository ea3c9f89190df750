import Synchronization
import Testing

@testable import LinkCore

/// The revised §5 rules: built-in types, explicit registration and removal, limits, `missed` reset only by an
/// acknowledgement, and `seq` that never restarts.
@Suite struct EventBusLifecycleTests {
    let t0 = ContinuousClock.now

    func subscribe(_ bus: EventBus, _ requests: [EventTypeRequest]) throws -> String {
        try bus.subscribe(requests, ttl: .seconds(300), now: t0).id
    }

    func poll(_ bus: EventBus, _ id: String, after: Int? = nil) throws -> PollResult? {
        if case .ready(let result) = try bus.poll(id, after: after, wait: .zero, now: t0, complete: { _ in }) {
            return result
        }
        return nil
    }

    @Test func builtInTypesExistAndReserveTheirNames() throws {
        let bus = EventBus()
        #expect(bus.types.map(\.label) == ["linkClick", "slotChanged"])
        let id = try subscribe(bus, [EventTypeRequest(name: "slotChanged")])
        let result = try bus.emit(try Location("/slots/device-42"), extra: nil, time: "t")
        #expect(result.matched == ["slotChanged"])
        #expect(try poll(bus, id)?.events.first?.json()["params"] == ["slot": "device-42"])
        #expect { try bus.register(EventTypeRequest(path: "/other", name: "linkClick")) } throws: {
            ($0 as? LinkError)?.code == .nameConflict
        }
        #expect { try bus.register(EventTypeRequest(path: "/slots/:x", name: "mine")) } throws: {
            ($0 as? LinkError)?.code == .nameConflict
        }
        #expect { try bus.remove(named: "linkClick") } throws: { ($0 as? LinkError)?.code == .readOnly }
    }

    @Test func registeringTellsWhetherAnythingChanged() throws {
        let bus = EventBus()
        #expect(try bus.register(EventTypeRequest(path: "/seek/:p")).changed)
        #expect(try !bus.register(EventTypeRequest(path: "/seek/:other")).changed)
        #expect(try bus.register(EventTypeRequest(path: "/seek/:p", name: "seek")).changed)
        #expect(try !bus.register(EventTypeRequest(path: "/seek/:p", name: "seek")).changed)
        #expect(try bus.register(EventTypeRequest(path: "/seek/:p")).type.name == "seek")
    }

    @Test func removedTypesStopDeliveringAndFreeTheirName() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/seek/:p", name: "seek"), EventTypeRequest(path: "/x")])
        try bus.remove(named: "seek")
        #expect { try bus.emit(try Location("/seek/1"), extra: nil, time: "t") } throws: {
            ($0 as? LinkError)?.code == .noMatch
        }
        #expect { try bus.remove(named: "seek") } throws: { ($0 as? LinkError)?.code == .unknownName }
        #expect { try bus.remove(pattern: try Pattern("/nothing")) } throws: { ($0 as? LinkError)?.code == .noMatch }
        // The name is free again, and the new type is not delivered to the old subscription.
        _ = try bus.register(EventTypeRequest(path: "/other/:q", name: "seek"))
        #expect(try bus.emit(try Location("/other/1"), extra: nil, time: "t").delivered == 0)
        #expect(try bus.emit(try Location("/x"), extra: nil, time: "t").delivered == 1)
        try bus.remove(pattern: try Pattern("/x"))
        #expect(bus.types.map(\.label) == ["linkClick", "slotChanged", "seek"])
        #expect(try poll(bus, id)?.events.map(\.type.label) == ["/x"])
    }

    /// A removal committed first: the commit is handed the type, the last `seq` its subscriptions will have of it
    /// and the removals count; one that fails removes nothing; a built-in type is refused before any commit.
    @Test func aRemovalCommittedFirstRemovesOnlyOnceCommitted() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/seek/:p", name: "seek")])
        _ = try bus.emit(try Location("/seek/1"), extra: nil, time: "t")
        struct DiskFull: Error {}
        #expect(throws: DiskFull.self) {
            try bus.remove(named: "seek") { type, through, removals in
                #expect(type.name == "seek")
                #expect(through == 1)
                #expect(removals == 1)
                throw DiskFull()
            }
        }
        #expect(try bus.emit(try Location("/seek/2"), extra: nil, time: "t").delivered == 1)
        let committed = try bus.remove(named: "seek") { _, through, removals in
            #expect(through == 2)
            #expect(removals == 1)
        }
        #expect(committed == (through: 2, removals: 1))
        #expect { try bus.emit(try Location("/seek/3"), extra: nil, time: "t") } throws: {
            ($0 as? LinkError)?.code == .noMatch
        }
        #expect(try poll(bus, id)?.events.map(\.seq) == [1, 2])
        #expect {
            try bus.remove(named: "slotChanged") { _, _, _ in Issue.record("committed a built-in's removal") }
        } throws: { ($0 as? LinkError)?.code == .readOnly }
    }

    @Test func subscriptionsAndTypeCountsAreBounded() throws {
        let bus = EventBus(limits: .init(maxTypes: 4, maxEventsPerSubscription: 3))
        let four = (0..<4).map { EventTypeRequest(path: "/t/\($0)") }
        #expect { try subscribe(bus, four) } throws: { ($0 as? LinkError)?.details["limit"] == 3 }
        #expect { try bus.plannedTypeChanges(four) } throws: { ($0 as? LinkError)?.code == .invalidRequest }
        _ = try subscribe(bus, Array(four.prefix(2)))
        #expect { try subscribe(bus, [EventTypeRequest(path: "/t/2")]) } throws: {
            ($0 as? LinkError)?.details["limit"] == 4
        }
        #expect(bus.types.count == 4)
    }

    /// Types loaded past the limit (a lower `events.maxTypes` at a restart, another instance's registrations) stay
    /// usable: only a change that adds one is refused (every subscription was refused, even by name to an existing
    /// type).
    @Test func typesPastTheLimitStayUsableAndOnlyGrowthIsRefused() throws {
        let loaded = try (0..<4).map { EventType(pattern: try Pattern("/t/\($0)"), name: "t\($0)") }
        let bus = EventBus(types: loaded, limits: .init(maxTypes: 4))  // with the two built-in types: 6
        #expect(try subscribe(bus, [EventTypeRequest(name: "t0"), EventTypeRequest(path: "/t/1")]).isEmpty == false)
        #expect(try bus.register(EventTypeRequest(path: "/t/2", name: "t2")).changed == false)
        #expect { try subscribe(bus, [EventTypeRequest(path: "/t/9")]) } throws: {
            ($0 as? LinkError)?.details["limit"] == 4
        }
        #expect { try bus.register(EventTypeRequest(path: "/t/9")) } throws: {
            ($0 as? LinkError)?.code == .invalidRequest
        }
        #expect(bus.types.count == 6)
    }

    @Test func missedCountsOnlyDropsNewerThanTheAcknowledgement() throws {
        let bus = EventBus(limits: .init(queueLimit: 2))
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")])
        for _ in 0..<3 { try bus.emit(try Location("/e"), extra: nil, time: "t") }
        let first = try #require(try poll(bus, id))
        #expect(first.events.map(\.seq) == [2, 3])
        #expect(first.missed == 1)
        // The client got 2 and 3; they are dropped before it acknowledges them, with two more dropped unseen.
        for _ in 0..<4 { try bus.emit(try Location("/e"), extra: nil, time: "t") }
        let second = try #require(try poll(bus, id, after: first.cursor))
        #expect(second.events.map(\.seq) == [6, 7])
        #expect(second.missed == 2)
        #expect(try poll(bus, id, after: second.cursor)?.missed == 0)
    }

    @Test func missedIsExactAcrossManyDrops() throws {
        let bus = EventBus(limits: .init(queueLimit: 1))
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")])
        for _ in 0..<(Subscription.maxDropRuns * 3) { try bus.emit(try Location("/e"), extra: nil, time: "t") }
        let answer = try #require(try poll(bus, id))
        #expect(answer.missed == Subscription.maxDropRuns * 3 - 1)
        #expect(try poll(bus, id, after: answer.cursor)?.missed == 0)
    }

    @Test func seqContinuesFromTheLastReservation() throws {
        let reserved = Mutex<[Int]>([])
        let first = EventBus(lastSeq: 0, reserveSeq: { limit in reserved.withLock { $0.append(limit) } })
        _ = try first.register(EventTypeRequest(path: "/e"))
        var last = 0
        for _ in 0..<(EventBus.seqBlock + 5) { last = try first.emit(try Location("/e"), extra: nil, time: "t").seq }
        #expect(last == EventBus.seqBlock + 5)
        #expect(reserved.withLock { $0 } == [EventBus.seqBlock, 2 * EventBus.seqBlock])
        // A restart (even after a crash) resumes above every seq handed out.
        let second = EventBus(lastSeq: reserved.withLock { $0.last! }, reserveSeq: { _ in })
        _ = try second.register(EventTypeRequest(path: "/e"))
        let next = try second.emit(try Location("/e"), extra: nil, time: "t").seq
        #expect(next > last)
        #expect(try second.subscribe([EventTypeRequest(path: "/e")], ttl: .seconds(1), now: t0).cursor == next)
    }

    @Test func aFailedReservationFailsTheEmitAndHandsOutNothing() throws {
        struct DiskFull: Error {}
        let bus = EventBus(lastSeq: 10, reserveSeq: { _ in throw DiskFull() })
        _ = try bus.register(EventTypeRequest(path: "/e"))
        #expect { try bus.emit(try Location("/e"), extra: nil, time: "t") } throws: {
            ($0 as? LinkError)?.code == .internal
        }
        #expect(bus.lastSeq == 10)
    }

    @Test func aReleasedPollNeverAcknowledgesAQueuedEvent() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")])
        try bus.emit(try Location("/e"), extra: nil, time: "t")
        _ = try poll(bus, id)  // answered with seq 1, and the answer is lost
        try bus.emit(try Location("/e"), extra: nil, time: "t")
        try bus.cancel(id)
        let other = try subscribe(bus, [EventTypeRequest(path: "/e")])
        #expect(try poll(bus, other)?.cursor == 2)
    }
}
