import Synchronization
import Testing

@testable import LinkCore

/// Collects what waiting polls were answered with.
final class Answers: Sendable {
    private let results = Mutex<[PollResult]>([])
    var all: [PollResult] { results.withLock { $0 } }
    var count: Int { all.count }
    func record(_ result: PollResult) { results.withLock { $0.append(result) } }
}

@Suite struct EventBusTests {
    let t0 = ContinuousClock.now

    func location(_ text: String) throws -> Location { try Location(text) }

    func subscribe(_ bus: EventBus, _ requests: [EventTypeRequest], ttl: Int = 300) throws -> String {
        try bus.subscribe(requests, ttl: .seconds(ttl), now: t0).id
    }

    func poll(_ bus: EventBus, _ id: String, after: Int? = nil, wait: Int = 0, at: Duration = .zero) throws
        -> PollResult?
    {
        if case .ready(let result) = try bus.poll(
            id, after: after, wait: .seconds(wait), now: t0 + at, complete: { _ in })
        {
            return result
        }
        return nil
    }

    /// Events committed before they are delivered (a slot's change and its `slotChanged`): the commit is handed
    /// their `seq`s and what they reach before any queue has them; a commit that fails delivers nothing and skips
    /// its `seq`s; a waiting poll is answered once the commit is done.
    @Test func eventsCommittedFirstReachNoQueueBeforeTheirCommit() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/slots/:slot")])
        let answers = Answers()
        #expect(
            try bus.poll(id, after: nil, wait: .seconds(30), now: t0, complete: answers.record) == .waiting)
        let events = [
            (location: try location("/slots/a"), extra: JSONValue.int(1)),
            (location: try location("/slots/a"), extra: JSONValue.int(2)),
        ]
        let failed = #expect(throws: LinkError.self) {
            _ = try bus.emit(events, time: "t") { results in
                #expect(results.map(\.seq) == [1, 2])
                #expect(results.map(\.delivered) == [1, 1])
                throw LinkError(.unavailable, "the disk is full")
            }
        }
        #expect(failed?.code == .unavailable)
        #expect(answers.count == 0)
        #expect(try bus.peek(id, after: nil).events.isEmpty)
        let committed = Mutex<[Int]>([])
        let results = try bus.emit(events, time: "t") { results in
            // Nothing is queued yet while the commit runs.
            #expect(answers.count == 0)
            committed.withLock { $0 = results.map(\.seq) }
        }
        #expect(results.map(\.seq) == [3, 4])
        #expect(committed.withLock { $0 } == [3, 4])
        #expect(answers.all.first?.events.map(\.seq) == [3])
        #expect(try bus.peek(id, after: nil).events.map(\.seq) == [3, 4])
        // An ordinary emit after them follows in `seq` order.
        #expect(try bus.emit(location("/slots/b"), extra: nil, time: "t").seq == 5)
        #expect(try bus.peek(id, after: nil).events.map(\.seq) == [3, 4, 5])
    }

    @Test func emitsReachEverySubscriberOfAMatchingType() throws {
        let bus = EventBus()
        let a = try subscribe(bus, [EventTypeRequest(path: "/seek/:progress", name: "onSeekProgress")])
        let b = try subscribe(bus, [EventTypeRequest(name: "onSeekProgress")])
        let result = try bus.emit(location("/seek/42?x=1"), extra: ["k": 1], time: "t")
        #expect(result == EmitResult(seq: 1, delivered: 2, matched: ["onSeekProgress"]))
        for id in [a, b] {
            let answer = try #require(try poll(bus, id))
            #expect(answer.events.count == 1)
            let event = try #require(answer.events.first)
            #expect(event.seq == 1)
            #expect(event.json()["params"] == ["progress": "42"])
            #expect(event.json()["query"] == ["x": "1"])
            #expect(event.json()["name"] == "onSeekProgress")
            #expect(event.json()["pattern"] == "/seek/:progress")
            #expect(event.json()["extra"] == ["k": 1])
            #expect(answer.cursor == 1)
        }
    }

    /// An event's bytes are written once when it is emitted and every answer carries them: they must be the whole
    /// event, members in the documented order (API.md §5), and an answer of several events must list each once.
    @Test func answersCarryEachEventAsWrittenWhenEmitted() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/seek/:progress"), EventTypeRequest(path: "/a/*rest")])
        try bus.emit(location("/seek/4%2F2?x=1&x=2&y"), extra: ["k": [1, "\"quoted\""]], time: "2026-11-27T08:00:00Z")
        try bus.emit(location("/a/b/c"), extra: nil, time: "t2")
        let answer = try #require(try poll(bus, id))
        let first: JSONValue = .object([
            "seq": 1, "name": .null, "pattern": "/seek/:progress", "location": "/seek/4%2F2?x=1&x=2&y",
            "params": ["progress": "4/2"], "query": ["x": "2", "y": ""], "extra": ["k": [1, "\"quoted\""]],
            "time": "2026-11-27T08:00:00Z",
        ])
        #expect(String(decoding: answer.events[0].encoded, as: UTF8.self) == first.encodedString())
        let parsed = answer.json()
        #expect(parsed["events"]?.arrayValue?.count == 2)
        #expect(parsed["events"]?.arrayValue?.first == first)
        #expect(parsed["events"]?.arrayValue?.last?["params"] == ["rest": "b/c"])
        #expect(parsed["cursor"] == 2)
        #expect(parsed["missed"] == 0)
        #expect(answer.hasNews)
        #expect(try poll(bus, id, after: 2)?.hasNews == false)
    }

    @Test func eachSubscriptionGetsAnEmitOnceWithItsBestMatchingPattern() throws {
        let bus = EventBus()
        let both = try subscribe(
            bus, [EventTypeRequest(path: "/files/*rest"), EventTypeRequest(path: "/files/:name", name: "file")])
        let catchAll = try subscribe(bus, [EventTypeRequest(path: "/files/*rest")])
        let result = try bus.emit(location("/files/a"), extra: nil, time: "t")
        #expect(result.delivered == 2)
        #expect(result.matched == ["file", "/files/*rest"])
        let first = try #require(try poll(bus, both))
        #expect(first.events.map { $0.type.pattern.description } == ["/files/:name"])
        let second = try #require(try poll(bus, catchAll))
        #expect(second.events.map { $0.type.pattern.description } == ["/files/*rest"])
    }

    @Test func unknownLocationIsNoMatchAndTypeWithoutSubscribersDeliversNothing() throws {
        let bus = EventBus(types: [EventType(pattern: try Pattern("/ping"), name: "ping")])
        #expect { try bus.emit(location("/nothing"), extra: nil, time: "t") } throws: {
            ($0 as? LinkError)?.code == .noMatch
        }
        #expect(try bus.emit(location("/ping"), extra: nil, time: "t").delivered == 0)
    }

    @Test func emitByNameBuildsTheLocation() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/seek/:progress", name: "seek")])
        try bus.emit(name: "seek", params: ["progress": "a/b"], query: [QueryItem("q", "1")], extra: nil, time: "t")
        let event = try #require(try poll(bus, id)?.events.first)
        #expect(event.json()["location"] == "/seek/a%2Fb?q=1")
        #expect(event.json()["params"] == ["progress": "a/b"])
        #expect { try bus.emit(name: "nope", params: [:], query: [], extra: nil, time: "t") } throws: {
            ($0 as? LinkError)?.code == .unknownName
        }
        #expect { try bus.emit(name: "seek", params: [:], query: [], extra: nil, time: "t") } throws: {
            ($0 as? LinkError)?.code == .missingParams
        }
    }

    @Test func seqGrowsStrictlyAndCursorsAcknowledge() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")])
        for _ in 0..<3 { try bus.emit(location("/e"), extra: nil, time: "t") }
        let first = try #require(try poll(bus, id))
        #expect(first.events.map(\.seq) == [1, 2, 3])
        #expect(first.cursor == 3)
        // Unacknowledged events are delivered again (at-least-once).
        #expect(try poll(bus, id)?.events.map(\.seq) == [1, 2, 3])
        try bus.emit(location("/e"), extra: nil, time: "t")
        #expect(try poll(bus, id, after: 2)?.events.map(\.seq) == [3, 4])
        let empty = try #require(try poll(bus, id, after: 4))
        #expect(empty.events.isEmpty)
        #expect(empty.cursor == 4)
    }

    /// An answer shares the subscription's queue rather than copying it: whatever the queue does afterwards
    /// (acknowledged, appended to, its oldest dropped), an answer already made keeps the events it was made with.
    @Test func anAnswerKeepsItsEventsWhileTheQueueMovesOn() throws {
        let bus = EventBus(limits: .init(queueLimit: 3))
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")])
        for _ in 0..<3 { try bus.emit(location("/e"), extra: nil, time: "t") }
        let first = try #require(try poll(bus, id))
        let answers = Answers()
        #expect(try bus.poll(id, after: 3, wait: .seconds(25), now: t0, complete: answers.record) == .waiting)
        try bus.emit(location("/e"), extra: nil, time: "t")
        let woken = try #require(answers.all.first)
        for _ in 0..<4 { try bus.emit(location("/e"), extra: nil, time: "t") }
        let later = try #require(try poll(bus, id))
        #expect(later.events.map(\.seq) == [6, 7, 8])
        #expect(later.missed == 2)
        #expect(first.events.map(\.seq) == [1, 2, 3])
        #expect(woken.events.map(\.seq) == [4])
        #expect(woken.cursor == 4)
    }

    @Test func fullQueuesDropTheOldestAndCountMissed() throws {
        let bus = EventBus(limits: .init(queueLimit: 2))
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")])
        for _ in 0..<5 { try bus.emit(location("/e"), extra: nil, time: "t") }
        let answer = try #require(try poll(bus, id))
        #expect(answer.events.map(\.seq) == [4, 5])
        #expect(answer.missed == 3)
        // Only an acknowledgement resets `missed`: an answer that never arrived loses no count.
        #expect(try poll(bus, id)?.missed == 3)
        #expect(try poll(bus, id, after: 5)?.missed == 0)
    }

    @Test func waitingPollIsAnsweredByAnEmit() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")])
        let answers = Answers()
        let outcome = try bus.poll(id, after: nil, wait: .seconds(25), now: t0, complete: answers.record)
        #expect(outcome == .waiting)
        #expect(bus.waitingCount == 1)
        try bus.emit(location("/e"), extra: "x", time: "t")
        #expect(answers.all.map { $0.events.map(\.seq) } == [[1]])
        #expect(bus.waitingCount == 0)
    }

    @Test func waitingPollTimesOutEmptyAtItsDeadline() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")])
        let answers = Answers()
        _ = try bus.poll(id, after: nil, wait: .seconds(10), now: t0, complete: answers.record)
        #expect(bus.nextDeadline == t0 + .seconds(10))
        #expect(bus.expire(now: t0 + .seconds(9)) == 0)
        #expect(answers.count == 0)
        #expect(bus.expire(now: t0 + .seconds(10)) == 1)
        #expect(answers.all.first?.events.isEmpty == true)
        #expect(bus.nextDeadline == nil)
    }

    @Test func aSecondPollReleasesTheFirst() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")])
        let first = Answers()
        let second = Answers()
        _ = try bus.poll(id, after: nil, wait: .seconds(25), now: t0, complete: first.record)
        _ = try bus.poll(id, after: nil, wait: .seconds(25), now: t0, complete: second.record)
        #expect(first.all.map(\.events.isEmpty) == [true])
        try bus.emit(location("/e"), extra: nil, time: "t")
        #expect(second.all.map { $0.events.count } == [1])
        #expect(first.count == 1)
    }

    @Test func oneEmitWakesEveryWaiter() throws {
        let bus = EventBus()
        let answers = Answers()
        for _ in 0..<500 {
            let id = try subscribe(bus, [EventTypeRequest(path: "/broadcast")])
            _ = try bus.poll(id, after: nil, wait: .seconds(60), now: t0, complete: answers.record)
        }
        #expect(bus.waitingCount == 500)
        #expect(try bus.emit(location("/broadcast"), extra: nil, time: "t").delivered == 500)
        #expect(answers.count == 500)
        #expect(bus.waitingCount == 0)
    }

    /// `peek` answers what a poll without wait would, and changes nothing: events and dropped counts stay
    /// unacknowledged, a waiting poll keeps waiting, the `ttl` is not restarted.
    @Test func aPeekAnswersAsAPollWithoutChangingAnything() throws {
        let bus = EventBus(limits: .init(queueLimit: 2))
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")], ttl: 5)
        for _ in 0..<5 { try bus.emit(location("/e"), extra: nil, time: "t") }
        let before = try bus.peek(id, after: nil, now: t0)
        let answer = try #require(try poll(bus, id))
        #expect(answer == before)
        #expect(answer.events.map(\.seq) == [4, 5])
        #expect(answer.missed == 3)
        let peeked = try bus.peek(id, after: 4, now: t0 + .seconds(4))
        #expect(peeked.events.map(\.seq) == [5])
        #expect(peeked.missed == 0)
        #expect(peeked.cursor == 5)
        // Nothing was acknowledged: the next poll without `after` answers as before, and the one that acknowledges
        // through 4 answers what the peek said.
        #expect(try poll(bus, id) == answer)
        #expect(try poll(bus, id, after: 4) == peeked)
        // A waiting poll is not released.
        let answers = Answers()
        #expect(
            try bus.poll(id, after: 5, wait: .seconds(30), now: t0, complete: { answers.record($0) }) == .waiting)
        _ = try bus.peek(id, after: nil, now: t0)
        #expect(answers.count == 0)
        #expect(bus.waitingCount == 1)
        // The ttl is not restarted by a peek: unpolled since t0 + 30 s (the waiting poll's end), gone 5 s later.
        try bus.cancel(id, now: t0)
        let idle = try subscribe(bus, [EventTypeRequest(path: "/e")], ttl: 5)
        _ = try bus.peek(idle, after: nil, now: t0 + .seconds(4))
        #expect { try bus.peek(idle, after: nil, now: t0 + .seconds(6)) } throws: {
            ($0 as? LinkError)?.code == .subscriptionNotFound
        }
    }

    @Test func unpolledSubscriptionsExpireAfterTheirTTL() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")], ttl: 5)
        bus.expire(now: t0 + .seconds(4))
        #expect(try poll(bus, id, at: .seconds(4)) != nil)
        bus.expire(now: t0 + .seconds(8))
        #expect(bus.subscriptionCount == 1)
        bus.expire(now: t0 + .seconds(9))
        #expect(bus.subscriptionCount == 0)
        #expect { try poll(bus, id, at: .seconds(10)) } throws: { ($0 as? LinkError)?.code == .subscriptionNotFound }
    }

    /// The sweep runs once a second, but a subscription is gone the moment its `ttl` is up: a poll or a cancel
    /// that comes before the sweep finds nothing, and does not bring it back.
    @Test func aSubscriptionPastItsTTLIsNotFoundBeforeTheSweep() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")], ttl: 1)
        bus.expire(now: t0 + .milliseconds(999))
        #expect(try poll(bus, id, at: .milliseconds(999)) != nil)
        bus.expire(now: t0 + .milliseconds(1_500))  // no sweep: the last one ran at 999 ms
        #expect(bus.subscriptionCount == 1)
        #expect { try poll(bus, id, at: .milliseconds(1_999)) } throws: {
            ($0 as? LinkError)?.code == .subscriptionNotFound
        }
        #expect(bus.subscriptionCount == 0)
        let other = try subscribe(bus, [EventTypeRequest(path: "/e")], ttl: 1)
        // An emit does not reach it either, nor count it as delivered.
        #expect(try bus.emit(location("/e"), extra: nil, time: "t", now: t0 + .milliseconds(999)).delivered == 1)
        #expect(try bus.emit(location("/e"), extra: nil, time: "t", now: t0 + .seconds(1)).delivered == 0)
        #expect { try bus.cancel(other, now: t0 + .seconds(1)) } throws: {
            ($0 as? LinkError)?.code == .subscriptionNotFound
        }
        #expect(try bus.emit(location("/e"), extra: nil, time: "t").delivered == 0)
    }

    /// API.md §5: a subscription expires once unpolled for `ttl`; a poll an emit answers ends then, so the `ttl`
    /// counts from the answer, not from the poll's start (a `ttl` shorter than `wait` once expired it at once).
    @Test func aPollAnsweredByAnEmitStartsItsSubscriptionsTTLAgain() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")], ttl: 10)
        let answers = Answers()
        _ = try bus.poll(id, after: nil, wait: .seconds(25), now: t0, complete: answers.record)
        bus.expire(now: t0 + .seconds(19))
        #expect(bus.subscriptionCount == 1)
        try bus.emit(location("/e"), extra: nil, time: "t", now: t0 + .seconds(20))
        #expect(answers.all.map { $0.events.count } == [1])
        bus.expire(now: t0 + .seconds(29))
        #expect(bus.subscriptionCount == 1)
        #expect(try poll(bus, id, after: 1, at: .seconds(29)) != nil)
        bus.expire(now: t0 + .seconds(38))
        #expect(bus.subscriptionCount == 1)
        bus.expire(now: t0 + .seconds(39))
        #expect(bus.subscriptionCount == 0)
    }

    @Test func cancelAnswersTheWaiterAndForgetsTheSubscription() throws {
        let bus = EventBus()
        let id = try subscribe(bus, [EventTypeRequest(path: "/e")])
        let answers = Answers()
        _ = try bus.poll(id, after: nil, wait: .seconds(25), now: t0, complete: answers.record)
        try bus.cancel(id)
        #expect(answers.count == 1)
        #expect { try bus.cancel(id) } throws: { ($0 as? LinkError)?.code == .subscriptionNotFound }
        #expect(try bus.emit(location("/e"), extra: nil, time: "t").delivered == 0)
    }

    @Test func subscriptionLimitIsEnforced() throws {
        let bus = EventBus(limits: .init(maxSubscriptions: 2))
        _ = try subscribe(bus, [EventTypeRequest(path: "/e")])
        _ = try subscribe(bus, [EventTypeRequest(path: "/e")])
        #expect { try subscribe(bus, [EventTypeRequest(path: "/e")]) } throws: {
            ($0 as? LinkError)?.code == .tooManySubscriptions
        }
    }

    @Test func namesBindToOnePattern() throws {
        let bus = EventBus()
        _ = try subscribe(bus, [EventTypeRequest(path: "/a/:x", name: "a")])
        // Same shape, other parameter name: the same type.
        _ = try subscribe(bus, [EventTypeRequest(path: "/a/:y", name: "a")])
        #expect(bus.userTypes.count == 1)
        #expect { try subscribe(bus, [EventTypeRequest(path: "/b", name: "a")]) } throws: {
            ($0 as? LinkError)?.code == .nameConflict
        }
        #expect { try subscribe(bus, [EventTypeRequest(path: "/a/:z", name: "other")]) } throws: {
            ($0 as? LinkError)?.code == .nameConflict
        }
        #expect { try subscribe(bus, [EventTypeRequest(name: "missing")]) } throws: {
            ($0 as? LinkError)?.code == .unknownName
        }
        #expect { try subscribe(bus, [EventTypeRequest(path: "/c", name: "bad name")]) } throws: {
            ($0 as? LinkError)?.code == .invalidRequest
        }
        #expect { try subscribe(bus, [EventTypeRequest(path: "no-slash/:x:y")]) } throws: {
            ($0 as? LinkError)?.code == .invalidPattern
        }
        // A failed request registers nothing.
        #expect(bus.userTypes.map(\.label) == ["a"])
    }

    @Test func plannedChangesListNewAndRenamedTypesOnly() throws {
        let bus = EventBus(types: [EventType(pattern: try Pattern("/a"))])
        let planned = try bus.plannedTypeChanges([
            EventTypeRequest(path: "/a", name: "a"), EventTypeRequest(path: "/b"), EventTypeRequest(path: "/a"),
        ])
        #expect(planned.map(\.label) == ["a", "/b"])
        #expect(bus.userTypes.map(\.label) == ["/a"])
    }

    @Test func releaseAllAnswersEveryWaiter() throws {
        let bus = EventBus()
        let answers = Answers()
        for _ in 0..<3 {
            let id = try subscribe(bus, [EventTypeRequest(path: "/e")])
            _ = try bus.poll(id, after: nil, wait: .seconds(25), now: t0, complete: answers.record)
        }
        bus.releaseAll()
        #expect(answers.count == 3)
        #expect(bus.waitingCount == 0)
    }

    @Test func idsAreUnguessable() {
        let ids = Set((0..<1000).map { _ in EventBus.newID() })
        #expect(ids.count == 1000)
        #expect(ids.allSatisfy { $0.count == 32 })
    }
}

extension EventBus {
    /// The registered types without the built-in ones.
    var userTypes: [EventType] { types.filter { !$0.isBuiltIn } }
}
