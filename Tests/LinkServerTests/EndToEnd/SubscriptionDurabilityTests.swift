import Dispatch
import Foundation
import LinkCore
import Logging
import Synchronization
import Testing

@testable import LinkServer

#if canImport(Glibc)
    import Glibc
#endif

/// With the embedded store, subscriptions survive a restart and `kill -9` (API.md §5: events stay queued until a
/// poll acknowledges them, `seq` and `missed` carry on; a 2xx survives a crash): a subscription's 201 and 204, and an
/// emit's 200, follow their commit; acknowledgements and idle times are written within a second, and at a clean stop.
@Suite(.serialized) struct SubscriptionDurabilityTests {
    static func arguments(_ dataDir: String) -> [String] {
        ["--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", "/nonexistent.json"]
    }

    /// Runs the server process on `dataDir`, then kills it with SIGKILL.
    static func crashing<T>(
        _ dataDir: String, environment: [String: String] = [:], _ body: (HTTPClient) throws -> T
    ) throws -> T {
        let server = try ServerProcess(arguments: arguments(dataDir), environment: environment)
        let value = try body(HTTPClient(port: try server.waitUntilListening()))
        server.signal(SIGKILL)
        _ = try server.waitForExit()
        return value
    }

    static func subscribe(_ client: HTTPClient, _ events: JSONValue, ttl: Int = 300) throws -> String {
        let reply = try client.post("/v1/events/subscriptions", ["events": events, "ttl": .int(ttl)])
        #expect(reply.status == 201)
        return try #require(reply.json?["id"]?.stringValue)
    }

    static func emit(_ client: HTTPClient, _ location: String, _ extra: JSONValue = nil) throws -> JSONValue? {
        let reply = try client.post("/v1/events/emit", ["loc": .string(location), "extra": extra])
        #expect(reply.status == 200)
        return reply.json
    }

    static func poll(_ client: HTTPClient, _ id: String, after: Int? = nil) throws -> HTTPClient.Reply {
        try client.get("/v1/events/subscriptions/\(id)?wait=0" + (after.map { "&after=\($0)" } ?? ""))
    }

    @Test func queuedEventsSurviveKill9ByteForByte() throws {
        let dataDir = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let (seek, both, before) = try Self.crashing(dataDir) { client throws in
            let seek = try Self.subscribe(client, [["path": "/seek/:progress", "name": "onSeek"]])
            let both = try Self.subscribe(client, [["name": "onSeek"], ["path": "/other"]])
            for progress in 1...4 {
                let answer = try Self.emit(client, "/seek/\(progress)?at=\(progress)", ["n": 1.5, "s": "é"])
                #expect(answer?["delivered"] == 2)
            }
            #expect(try Self.emit(client, "/other")?["delivered"] == 1)
            // Handed out, not acknowledged: queued still when the process dies.
            return (seek, both, try Self.poll(client, seek).json)
        }
        try withRestarted(dataDir) { client throws in
            let after = try Self.poll(client, seek).json
            #expect(after == before)
            #expect(after?["events"]?.arrayValue?.map { $0["seq"] } == [1, 2, 3, 4])
            let other = try #require(try Self.poll(client, both).json)
            #expect(
                other["events"]?.arrayValue?.map { $0["location"] } == [
                    "/seek/1?at=1", "/seek/2?at=2", "/seek/3?at=3", "/seek/4?at=4", "/other",
                ])
            #expect(other["events"]?.arrayValue?.last?["pattern"] == "/other")
            // Both still receive what is emitted now, above every `seq` handed out before.
            let next = try #require(try Self.emit(client, "/seek/9"))
            #expect(next["delivered"] == 2)
            #expect((next["seq"]?.intValue ?? 0) > 5)
        }
    }

    /// Emits from four clients at once share commits (group commit): each that answered 200 is queued after a
    /// `kill -9` that comes while they are in flight; one cut off without an answer may be there or not.
    @Test func everyAcknowledgedEmitOfConcurrentClientsSurvivesKill9() throws {
        let dataDir = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let environment = ["LINK_EVENTS_QUEUE_LIMIT": "5000"]
        let acknowledged = Mutex<[Int]>([])
        let group = DispatchGroup()
        let id = try Self.crashing(dataDir, environment: environment) { client in
            let id = try Self.subscribe(client, [["path": "/tick/:client/:n"]])
            let port = client.port
            for writer in 0..<4 {
                DispatchQueue.global().async(group: group) {
                    let emitter = HTTPClient(port: port)
                    // Each stops at its first request without an answer (the kill).
                    for n in 0..<1000 {
                        guard
                            let reply = try? emitter.post(
                                "/v1/events/emit", ["loc": .string("/tick/\(writer)/\(n)")]),
                            reply.status == 200, let seq = reply.json?["seq"]?.intValue
                        else { return }
                        acknowledged.withLock { $0.append(seq) }
                    }
                }
            }
            #expect(waitUntil(timeout: .seconds(60)) { acknowledged.withLock { $0.count } >= 200 })
            return id
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        let sent = Set(acknowledged.withLock { $0 })
        try withRestarted(dataDir, environment: environment) { client throws in
            let queued = try #require(try Self.poll(client, id).json?["events"]?.arrayValue)
            let seqs = Set(queued.compactMap { $0["seq"]?.intValue })
            #expect(sent.isSubset(of: seqs), "lost: \(sent.subtracting(seqs).sorted().prefix(5))")
            // At most the four cut off without an answer came on top.
            #expect(seqs.count <= sent.count + 4)
        }
    }

    /// Subscriptions opened by four clients at once share commits too: each 201 is there after a `kill -9` that
    /// comes while they are in flight.
    @Test func everySubscriptionAnswered201SurvivesKill9() throws {
        let dataDir = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let acknowledged = Mutex<[String]>([])
        let group = DispatchGroup()
        try Self.crashing(dataDir) { (client) throws -> Void in
            #expect(try client.post("/v1/events", ["path": "/open/:n"]).status == 201)
            let port = client.port
            for _ in 0..<4 {
                DispatchQueue.global().async(group: group) {
                    let subscriber = HTTPClient(port: port)
                    for _ in 0..<1000 {
                        guard
                            let reply = try? subscriber.post(
                                "/v1/events/subscriptions", ["events": [["path": "/open/:n"]]]),
                            reply.status == 201, let id = reply.json?["id"]?.stringValue
                        else { return }
                        acknowledged.withLock { $0.append(id) }
                    }
                }
            }
            #expect(waitUntil(timeout: .seconds(60)) { acknowledged.withLock { $0.count } >= 100 })
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        let ids = acknowledged.withLock { $0 }
        try withRestarted(dataDir) { client throws in
            let lost = try ids.filter { try Self.poll(client, $0).status != 200 }
            #expect(lost.count == 0, "of \(ids.count) subscriptions, lost: \(lost.prefix(3))")
            #expect((try Self.emit(client, "/open/1")?["delivered"]?.intValue ?? 0) >= ids.count)
        }
    }

    @Test func droppedCountsAndAcknowledgementsCarryOn() throws {
        let dataDir = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let environment = ["LINK_EVENTS_QUEUE_LIMIT": "3"]
        let id = try Self.crashing(dataDir, environment: environment) { client throws in
            let id = try Self.subscribe(client, [["path": "/e/:n"]])
            for n in 1...7 { _ = try Self.emit(client, "/e/\(n)") }
            return id
        }
        let cursor = try withRestarted(dataDir, environment: environment, stop: SIGTERM) { client throws in
            let answer = try #require(try Self.poll(client, id).json)
            #expect(answer["events"]?.arrayValue?.map { $0["seq"] } == [5, 6, 7])
            #expect(answer["missed"] == 4)
            // A lost answer loses no count: asked again without acknowledging, the same.
            #expect(try Self.poll(client, id).json?["missed"] == 4)
            let acknowledged = try #require(try Self.poll(client, id, after: 6).json)
            #expect(acknowledged["events"]?.arrayValue?.map { $0["seq"] } == [7])
            #expect(acknowledged["missed"] == 0)
            return try #require(acknowledged["cursor"]?.intValue)
        }
        // The acknowledgement was written at the clean stop: only event 7 is left.
        try withRestarted(dataDir, environment: environment) { client throws in
            let answer = try #require(try Self.poll(client, id).json)
            #expect(answer["events"]?.arrayValue?.map { $0["seq"] } == [7])
            #expect(answer["missed"] == 0)
            #expect(answer["cursor"]?.intValue == cursor)
        }
    }

    @Test func aClosedSubscriptionStaysClosedAfterKill9() throws {
        let dataDir = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let (closed, open) = try Self.crashing(dataDir) { client throws in
            let closed = try Self.subscribe(client, [["path": "/e"]])
            let open = try Self.subscribe(client, [["path": "/e"]])
            #expect(try client.request("DELETE", "/v1/events/subscriptions/\(closed)").status == 204)
            return (closed, open)
        }
        try withRestarted(dataDir) { client throws in
            #expect(try Self.poll(client, closed).errorCode == "subscription_not_found")
            #expect(try Self.poll(client, open).status == 200)
            #expect(try Self.emit(client, "/e")?["delivered"] == 1)
        }
    }

    /// §5: a removed type's subscriptions stop receiving it, and keep what they had queued of it, across a restart
    /// too; registered again, it does not reach them.
    @Test func aRemovedTypeKeepsWhatWasQueuedAndSendsNoMore() throws {
        let dataDir = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let id = try withServer(dataDir: dataDir) { server throws in
            let client = server.client()
            let id = try Self.subscribe(client, [["path": "/a", "name": "a"], ["path": "/b"]])
            _ = try Self.emit(client, "/a")
            #expect(try client.request("DELETE", "/v1/events/a").status == 204)
            #expect(try client.post("/v1/events", ["path": "/a"]).status == 201)
            #expect(try Self.emit(client, "/a")?["delivered"] == 0)
            return id
        }
        try withServer(dataDir: dataDir) { server throws in
            let client = server.client()
            #expect(try Self.poll(client, id).json?["events"]?.arrayValue?.map { $0["location"] } == ["/a"])
            // Registered again before the restart: it still does not reach the subscription.
            #expect(try Self.emit(client, "/a")?["delivered"] == 0)
            #expect(try Self.emit(client, "/b")?["delivered"] == 1)
        }
    }

    /// A click's `linkClick` is not waited for (the click's answer does not say it was delivered): it is written
    /// with the next sync, and at a clean stop.
    @Test func aClickEventQueuedAtAStopIsThereAfterIt() throws {
        let dataDir = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let id = try withServer(dataDir: dataDir, { LinkListenerTests.configure(&$0) }) { server throws in
            let id = try server.client().subscribeToClicks()
            #expect(try server.linksClient().click("/nothing", agent: LinkListenerTests.iPhone).status == 404)
            return id
        }
        try withServer(dataDir: dataDir, { LinkListenerTests.configure(&$0) }) { server throws in
            let events = try server.client().queuedEvents(id)
            #expect(events.map { $0["location"] } == ["/links/clicks/-"])
        }
    }

    /// The server process on `dataDir` again; stopped with `stop` afterwards (SIGKILL unless told otherwise).
    private func withRestarted<T>(
        _ dataDir: String, environment: [String: String] = [:], stop: Int32 = SIGKILL, _ body: (HTTPClient) throws -> T
    ) throws -> T {
        let server = try ServerProcess(arguments: Self.arguments(dataDir), environment: environment)
        let value = try body(HTTPClient(port: try server.waitUntilListening()))
        server.signal(stop)
        let status = try server.waitForExit()
        if stop == SIGTERM { #expect(status == 0) }
        return value
    }
}

/// The journal against a real SQLite store, with the wall clock in the test's hands: what is left of a subscription's
/// `ttl` carries across a restart, and one idle for its `ttl` is removed.
@Suite struct SubscriptionJournalTests {
    final class Clock: Sendable {
        let milliseconds = Mutex<Int64>(1_000_000)
        func read() -> Int64 { milliseconds.withLock { $0 } }
        func advance(_ by: Int64) { milliseconds.withLock { $0 += by } }
    }

    /// One start on `directory`: the store opened, the kept subscriptions restored, `body` run, a clean stop's sync.
    /// Answers the bus and how many subscriptions came back.
    static func started(
        _ directory: String, clock: Clock, lastSeq: Int = 100,
        _ body: (LocalEventHub, SQLiteStore) throws -> Void = { _, _ in }
    ) throws -> (bus: EventBus, restored: Int) {
        let store = try SQLiteStore(directory: directory)
        defer { try? store.close() }
        let bus = EventBus(types: try store.loadEventTypes(), lastSeq: lastSeq)
        let journal = SubscriptionJournal(store: store, bus: bus, logger: Logger(label: "test"), clock: clock.read)
        let restored = try journal.restore(now: .now)
        try body(LocalEventHub(types: bus, journal: journal), store)
        journal.sync()
        return (bus, restored)
    }

    @Test func theRestOfTheTTLCarriesAcrossARestartAndAnIdleOneIsRemoved() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = Clock()
        var ids: [String] = []
        _ = try Self.started(directory, clock: clock) { (hub, _) throws in
            ids.append(try hub.subscribe([EventTypeRequest(path: "/e")], ttl: .seconds(10)).id)
            ids.append(try hub.subscribe([EventTypeRequest(path: "/e")], ttl: .seconds(60)).id)
        }
        clock.advance(9_500)
        let (bus, restored) = try Self.started(directory, clock: clock)
        #expect(restored == 2)
        // 9.5 s of the first one's 10 s had passed: half a second is left.
        let now = ContinuousClock.now
        #expect(throws: Never.self) { try bus.peek(ids[0], after: nil, now: now + .milliseconds(400)) }
        #expect(throws: LinkError.self) { try bus.peek(ids[0], after: nil, now: now + .milliseconds(600)) }
        clock.advance(1_000)
        let (later, count) = try Self.started(directory, clock: clock) { (_, store) throws in
            // The expired one is gone from the store too.
            #expect(try store.loadSubscriptions().subscriptions.map(\.id) == [ids[1]])
        }
        #expect(count == 1)
        #expect(later.subscriptionCount == 1)
    }

    /// The log keeps the last ``SubscriptionJournal/retained`` `seq`s whole; below them, only the events a
    /// subscription still holds: one holding an older event (to a type rarely emitted, polled by no one) gets it after
    /// a restart, as only an overflow drops an event (API.md §5), while the events no one holds are gone from disk.
    @Test func theLogKeepsABoundedTailAndTheOlderEventsStillHeld() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = Clock()
        var rare = ""
        var rareSeq = 0
        _ = try Self.started(directory, clock: clock) { (hub, store) throws in
            rare = try hub.subscribe([EventTypeRequest(path: "/rare")], ttl: .seconds(60)).id
            let busy = try hub.subscribe([EventTypeRequest(path: "/busy")], ttl: .seconds(60)).id
            let emitted = try hub.emit(try Location("/rare"), extra: nil, time: "t")
            #expect(emitted.delivered == 1)
            rareSeq = emitted.seq
            #expect(try hub.emit(try Location("/busy"), extra: nil, time: "t").delivered == 1)
            // More `seq`s than the log keeps whole go by (on the bus alone: they need not be written for this).
            let journal = SubscriptionJournal(store: store, bus: hub.types, logger: Logger(label: "test"))
            for _ in 0...journal.retained { try hub.types.emit(try Location("/busy"), extra: nil, time: "t") }
            _ = try hub.poll(busy, after: hub.types.lastSeq, wait: .zero, waiter: UnusedPollWaiter.shared)
            #expect(try hub.peek(rare, after: nil).hasNews)
        }
        let (bus, _) = try Self.started(directory, clock: clock) { (_, store) throws in
            // The acknowledged `/busy` event is gone; the `/rare` one, still held, stays.
            #expect(try store.loadSubscriptions().events.map(\.seq) == [rareSeq])
        }
        let answer = try bus.peek(rare, after: nil)
        #expect(answer.events.map(\.seq) == [rareSeq])
        #expect(answer.missed == 0)
    }

    /// A subscription opened before a type's removal but committed after it holds the type only through the removal's
    /// `seq`; one opened after it (the pattern registered again) keeps it.
    @Test func aRemovalRetiresTheTypeOfSubscriptionsOpenedBeforeItWhenEverTheyAreWritten() throws {
        try Self.withJournal { (store, _, journal) throws in
            let type = EventType(pattern: try Pattern("/a"))
            try journal.opened(id: "written", types: [type], ttl: .seconds(60), cursor: 0, removals: 0)
            try journal.removingType(type, through: 7, removals: 1)
            try journal.opened(id: "before", types: [type], ttl: .seconds(60), cursor: 0, removals: 0)
            try journal.opened(id: "after", types: [type], ttl: .seconds(60), cursor: 7, removals: 1)
            let through = Dictionary(
                uniqueKeysWithValues: try store.loadSubscriptions().subscriptions.map {
                    ($0.id, $0.types.first?.through ?? -1)
                })
            #expect(through == ["written": 7, "before": 7, "after": -1])
        }
    }

    /// An emit that waits without holding its thread is answered from the committing thread once its event is in
    /// the log. That thread ends when idle, and the next such emit starts another.
    @Test func emitsAnsweredLaterAreLoggedFirstAndTheCommittingThreadComesBack() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(directory: directory)
        defer { try? store.close() }
        let bus = EventBus(types: [EventType(pattern: try Pattern("/b"))])
        let journal = SubscriptionJournal(
            store: store, bus: bus, logger: Logger(label: "test"), committerIdle: .milliseconds(20))
        let hub = LocalEventHub(types: bus, journal: journal)
        _ = try hub.subscribe([EventTypeRequest(path: "/a/:n")], ttl: .seconds(60))
        for n in 1...2 {
            guard
                case .afterCommit(let whenCommitted) = try hub.emitAnswer(
                    try Location("/a/\(n)"), extra: nil, time: "t")
            else {
                Issue.record("an emit that reached a subscriber was answered before its commit")
                return
            }
            let answered = DispatchSemaphore(value: 0)
            // What the log holds when the answer is given, and the answer.
            let seen = Mutex<(logged: [Int]?, delivered: Int?)>((nil, nil))
            whenCommitted { outcome in
                let logged = try? store.loadSubscriptions().events.map(\.seq)
                seen.withLock { $0 = (logged, try? outcome.get().delivered) }
                answered.signal()
            }
            #expect(answered.wait(timeout: .now() + 30) == .success)
            let (logged, delivered) = seen.withLock { $0 }
            #expect(logged?.count == n)
            #expect(delivered == 1)
            #expect(waitUntil { !journal.committing })
        }
        // An emit nobody hears is answered at once.
        guard case .now(let unheard) = try hub.emitAnswer(try Location("/b"), extra: nil, time: "t") else {
            Issue.record("an emit nobody heard waited for a commit")
            return
        }
        #expect(unheard.delivered == 0)
    }

    /// A delete's 204 waits for its row's removal to be committed, from the suspended connection: the subscription is
    /// closed on the bus at once (a waiting poll answers), and gone from the store by the answer.
    @Test func aDeleteIsAnsweredOnceItsRowIsRemoved() throws {
        try Self.withJournal { (store, bus, journal) throws in
            let hub = LocalEventHub(types: bus, journal: journal)
            let (closed, _) = try hub.subscribe([EventTypeRequest(path: "/a/:n")], ttl: .seconds(60))
            let (open, _) = try hub.subscribe([EventTypeRequest(path: "/a/:n")], ttl: .seconds(60))
            guard case .afterCommit(let whenCommitted) = try hub.cancelAnswer(closed) else {
                Issue.record("a delete with the journal was answered before its commit")
                return
            }
            #expect(bus.subscriptionCount == 1)
            let answered = DispatchSemaphore(value: 0)
            // The ids the store holds when the answer is given, and whether it succeeded.
            let seen = Mutex<(stored: [String]?, succeeded: Bool)>((nil, false))
            whenCommitted { outcome in
                let stored = try? store.loadSubscriptions().subscriptions.map(\.id)
                seen.withLock { $0 = (stored, (try? outcome.get()) != nil) }
                answered.signal()
            }
            #expect(answered.wait(timeout: .now() + 30) == .success)
            let (stored, succeeded) = seen.withLock { $0 }
            #expect(succeeded)
            #expect(stored == [open])
            // An unknown id is refused at once, before anything is queued.
            #expect(throws: LinkError.self) { _ = try hub.cancelAnswer(closed) }
        }
    }

    /// A type's removal deletes its row and retires it from its subscriptions in one transaction, before the type
    /// leaves the bus: one whose commit fails is not made (it answered 204 with the row gone and the subscriptions
    /// still holding the type, which the pattern registered again would have reached after a start).
    @Test func aTypeRemovalIsCommittedWholeOrNotMade() throws {
        let type = EventType(pattern: try Pattern("/p/:x"), name: "p")
        try Self.withJournalThatCannotWrite(types: [type]) { (store, bus, types) throws in
            #expect(throws: (any Error).self) { try types.remove(name: "p", pattern: nil) }
            #expect(try bus.type(named: "p") == type)
            #expect(try store.loadEventTypes() == [type])
        }
        try Self.withJournal { (store, bus, journal) throws in
            let hub = LocalEventHub(types: bus, journal: journal)
            let live = LiveEventTypes(hub: hub, store: store)
            let (id, _) = try hub.subscribe([EventTypeRequest(path: "/p/:x", name: "p")], ttl: .seconds(60))
            try store.saveEventTypes([try bus.type(named: "p")], before: [nil])
            _ = try hub.emit(try Location("/p/1"), extra: nil, time: "t")
            try live.remove(name: "p", pattern: nil)
            #expect(try store.loadEventTypes().isEmpty)
            let kept = try #require(try store.loadSubscriptions().subscriptions.first { $0.id == id })
            #expect(kept.types.map(\.through) == [bus.lastSeq])
        }
    }

    /// A slot's change and its `slotChanged` event are written in one transaction (API.md §11): what a restart finds
    /// in the slot, its subscribers find in their queue. (The slot was written first, and its event by a commit of its
    /// own: `kill -9` between the two left a slot no event told of.)
    @Test func aSlotChangeIsWrittenWithItsEvent() throws {
        try Self.withJournal { (store, bus, journal) throws in
            let hub = LocalEventHub(types: bus, journal: journal)
            let (id, _) = try hub.subscribe([EventTypeRequest(name: "slotChanged")], ttl: .seconds(60))
            let board = try SlotBoard(store: store, hub: hub)
            #expect(try board.present("banner", id: "p1", priority: 1, payload: .null, ttl: 60).reason != nil)
            // As a start finds them: the slot and its event, from the store alone.
            #expect(try store.loadSlots()["banner"]?.id == "p1")
            let restarted = EventBus()
            try SubscriptionJournal(store: store, bus: restarted, logger: Logger(label: "test")).restore()
            let events = try restarted.peek(id, after: nil).events
            #expect(events.map { $0.extra["current"]?["id"] } == ["p1"])
        }
    }

    /// A slot change whose commit fails is not made, and tells no one: its events are delivered only once committed
    /// (a subscriber told of a change refused with a 503 would show what the slot does not; an expiry tried again
    /// every second would tell it every second).
    @Test func aSlotChangeWhoseEventCannotBeWrittenIsNotMadeNorTold() throws {
        try Self.withJournalThatCannotWrite { (store, bus, types) throws in
            // Opened on the bus alone: the journal can write nothing.
            let subscriber = try bus.open([EventTypeRequest(name: "slotChanged")], ttl: .seconds(60), now: .now)
            let board = try SlotBoard(store: store, hub: types.hub)
            #expect(throws: (any Error).self) {
                try board.present("banner", id: "p1", priority: 1, payload: .null, ttl: 60)
            }
            #expect(board.current("banner") == nil)
            #expect(try bus.peek(subscriber.id, after: nil).events.isEmpty)
        }
    }

    /// Runs `body` with the types' store, a bus holding `types` (stored too), and live types whose journal writes to
    /// a store that is closed: every commit of the journal fails, while the types' store works.
    static func withJournalThatCannotWrite(
        types stored: [EventType] = [], _ body: (SQLiteStore, EventBus, LiveEventTypes) throws -> Void
    ) throws {
        let directory = TestServer.temporaryDirectory()
        let elsewhere = TestServer.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: elsewhere)
        }
        let store = try SQLiteStore(directory: directory)
        defer { try? store.close() }
        let unwritable = try SQLiteStore(directory: elsewhere)
        try unwritable.close()
        try store.saveEventTypes(stored, before: stored.map { _ in nil })
        let bus = EventBus(types: stored)
        let journal = SubscriptionJournal(store: unwritable, bus: bus, logger: Logger(label: "test"))
        try body(store, bus, LiveEventTypes(hub: LocalEventHub(types: bus, journal: journal), store: store))
    }

    /// Runs `body` with an embedded store in a folder of its own, an empty bus and their journal.
    static func withJournal(_ body: (SQLiteStore, EventBus, SubscriptionJournal) throws -> Void) throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(directory: directory)
        defer { try? store.close() }
        let bus = EventBus()
        try body(store, bus, SubscriptionJournal(store: store, bus: bus, logger: Logger(label: "test")))
    }

    /// What an answer that waits for its commit is told, once told (`nil`, recorded as an issue, when it was answered
    /// at once: with the journal, these answers follow their commit).
    static func told<Value>(_ answer: CommittedAnswer<Value>) -> Result<Value, any Error>? {
        guard case .afterCommit(let whenCommitted) = answer else {
            Issue.record("answered before its commit")
            return nil
        }
        let answered = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        whenCommitted { result in
            outcome.withLock { $0 = result }
            answered.signal()
        }
        #expect(answered.wait(timeout: .now() + 30) == .success)
        return outcome.withLock { $0 }
    }

    /// A subscription whose store commit fails registers no type: the bus takes back what it registered (a type
    /// registered for it stayed on the bus only, and a later subscription to it was kept with a type the next start
    /// lacks).
    @Test func aSubscriptionTheJournalCannotWriteLeavesNoTypeBehind() throws {
        try Self.withJournalThatCannotWrite { (store, bus, types) throws in
            #expect(throws: (any Error).self) {
                try types.subscribe([EventTypeRequest(path: "/ghost/:x", name: "ghost")], ttl: .seconds(60)) {}
            }
            #expect(throws: LinkError.self) { try bus.type(named: "ghost") }
            #expect(try store.loadEventTypes().isEmpty)
            #expect(bus.subscriptionCount == 0)
        }
    }

    /// A subscription to existing types is answered once its row is committed, from the suspended connection: one
    /// whose commit fails is answered with why, and the bus takes it back (nobody was told its id).
    @Test func aSubscriptionAnsweredAfterAFailedCommitIsTakenBack() throws {
        let type = EventType(pattern: try Pattern("/p/:x"))
        try Self.withJournalThatCannotWrite(types: [type]) { (_, bus, types) throws in
            let failed = try #require(
                Self.told(
                    try types.subscribe([EventTypeRequest(path: "/p/:x")], ttl: .seconds(60), authorizeWrite: {})))
            #expect(throws: (any Error).self) { try failed.get() }
            #expect(bus.subscriptionCount == 0)
            #expect(try bus.type(pattern: type.pattern) == type)
        }
    }

    /// A delete whose commit fails is answered with why (its 204 would promise a removal the next start undoes).
    @Test func aDeleteWhoseCommitFailsIsAnsweredWithTheFailure() throws {
        let type = EventType(pattern: try Pattern("/p/:x"))
        try Self.withJournalThatCannotWrite(types: [type]) { (_, bus, types) throws in
            // Opened on the bus alone: the journal can write nothing.
            let opened = try bus.open([EventTypeRequest(path: "/p/:x")], ttl: .seconds(60), now: .now)
            let failed = try #require(Self.told(try types.hub.cancelAnswer(opened.id)))
            #expect(throws: (any Error).self) { try failed.get() }
        }
    }

    /// A start retires the types its subscriptions hold that are no longer registered (their removal's write was
    /// lost): registered again later, they do not come back to them at the next start.
    @Test func aStartRetiresTypesNoLongerRegistered() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = Clock()
        var id = ""
        _ = try Self.started(directory, clock: clock) { (hub, store) throws in
            let stored = [EventType(pattern: try Pattern("/gone")), EventType(pattern: try Pattern("/kept"))]
            try store.saveEventTypes(stored, before: [nil, nil])
            id = try hub.subscribe(
                [EventTypeRequest(path: "/gone"), EventTypeRequest(path: "/kept")], ttl: .seconds(60)
            )
            .id
            // Removed from the store behind the journal's back.
            try store.deleteEventType(EventType(pattern: try Pattern("/gone")))
        }
        _ = try Self.started(directory, clock: clock) { (hub, store) throws in
            let types = try #require(try store.loadSubscriptions().subscriptions.first { $0.id == id }?.types)
            #expect(types.first { $0.pattern == "/gone" }?.through != nil)
            #expect(types.first { $0.pattern == "/kept" }?.through == nil)
            try store.saveEventTypes([EventType(pattern: try Pattern("/gone"))], before: [nil])
        }
        let (bus, _) = try Self.started(directory, clock: clock)
        #expect(try bus.emit(try Location("/gone"), extra: nil, time: "t").delivered == 0)
        #expect(try bus.emit(try Location("/kept"), extra: nil, time: "t").delivered == 1)
    }

    /// An idle subscription's row is not written again because other types' emits move the next `seq`.
    @Test func anIdleSubscriptionIsNotRewrittenByOthersEmits() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(directory: directory)
        defer { try? store.close() }
        let bus = EventBus(types: [EventType(pattern: try Pattern("/b"))])
        let journal = SubscriptionJournal(store: store, bus: bus, logger: Logger(label: "test"))
        let hub = LocalEventHub(types: bus, journal: journal)
        let id = try hub.subscribe([EventTypeRequest(path: "/a")], ttl: .seconds(60)).id
        let before = try #require(try store.loadSubscriptions().subscriptions.first)
        for _ in 0..<3 {
            try bus.emit(try Location("/b"), extra: nil, time: "t")
            journal.sync()
        }
        #expect(try store.loadSubscriptions().subscriptions.first == before)
        // An event that reaches it moves it.
        _ = try hub.emit(try Location("/a"), extra: nil, time: "t")
        _ = try hub.poll(id, after: nil, wait: .zero, waiter: UnusedPollWaiter.shared)
        journal.sync()
        #expect(try store.loadSubscriptions().subscriptions.first?.cursor == 4)
    }

    /// The usual rhythm (an answer, its row written, a poll acknowledging it, the row written again) leaves nothing
    /// to deliver again after a restart: an emptied queue's row moves past what it acknowledged.
    @Test func acknowledgedEventsStayAcknowledgedAcrossARestart() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = Clock()
        var id = ""
        _ = try Self.started(directory, clock: clock) { (hub, store) throws in
            try store.saveEventTypes([EventType(pattern: try Pattern("/a/:x"))], before: [nil])
            id = try hub.subscribe([EventTypeRequest(path: "/a/:x")], ttl: .seconds(60)).id
            // Another subscription that never polls keeps the events in the log.
            _ = try hub.subscribe([EventTypeRequest(path: "/a/:x")], ttl: .seconds(60))
            for x in 1...3 { _ = try hub.emit(try Location("/a/\(x)"), extra: nil, time: "t") }
            let answer = try hub.poll(id, after: nil, wait: .zero, waiter: UnusedPollWaiter.shared)
            #expect(answer?.hasNews == true)
        }
        // The first start's last sync wrote the answer's cursor with the events still queued; this one acknowledges.
        // (Each start continues above every `seq` handed out, as the service's reservations make it.)
        _ = try Self.started(directory, clock: clock, lastSeq: 200) { (hub, _) throws in
            let answer = try #require(try hub.poll(id, after: 103, wait: .zero, waiter: UnusedPollWaiter.shared))
            #expect(!answer.hasNews)
        }
        let (bus, _) = try Self.started(directory, clock: clock, lastSeq: 300)
        let after = try bus.peek(id, after: nil)
        #expect(after.events.isEmpty)
        #expect(after.cursor >= 103)
    }

    /// A subscription whose commit fails lets go of a name it gave an existing type, and the type's other
    /// subscribers keep it.
    @Test func aFailedSubscriptionGivesBackANameAndLeavesTheTypeToItsSubscribers() throws {
        let type = EventType(pattern: try Pattern("/p/:x"))
        try Self.withJournalThatCannotWrite(types: [type]) { (store, bus, types) throws in
            let other = try bus.subscribe([EventTypeRequest(path: "/p/:x")], ttl: .seconds(60), now: .now).id
            #expect(throws: (any Error).self) {
                try types.subscribe([EventTypeRequest(path: "/p/:y", name: "n")], ttl: .seconds(60)) {}
            }
            #expect(throws: LinkError.self) { try bus.type(named: "n") }
            #expect(try store.loadEventTypes() == [type])
            #expect(try bus.emit(try Location("/p/1"), extra: nil, time: "t").delivered == 1)
            #expect(try bus.peek(other, after: nil).events.count == 1)
        }
    }

    /// The embedded hub, with a type removed between a subscription's plan and its opening (the race a removal on
    /// another connection makes).
    struct RacingHub: EventHub {
        let base: LocalEventHub
        /// Opens the subscription in place of the base hub (after or around what the race does).
        let subscribing:
            @Sendable (LocalEventHub, [EventTypeRequest], Duration, Bool) throws -> (id: String, cursor: Int)

        var types: EventBus { base.types }
        var subscriptionCount: Int { base.subscriptionCount }
        var waitingCount: Int { base.waitingCount }
        var pollsOnce: Bool { false }
        func subscribe(_ requests: [EventTypeRequest], ttl: Duration, registering: Bool) throws -> (
            id: String, cursor: Int
        ) {
            try subscribing(base, requests, ttl, registering)
        }
        func cancel(_ id: String) throws { try base.cancel(id) }
        func poll(_ id: String, after: Int?, wait: Duration, waiter: any PollAnswerWaiter) throws -> PollAnswer? {
            try base.poll(id, after: after, wait: wait, waiter: waiter)
        }
        func peek(_ id: String, after: Int?) throws -> PollAnswer { try base.peek(id, after: after) }
        func emit(_ location: Location, extra: JSONValue, time: String) throws -> EmitResult {
            try base.emit(location, extra: extra, time: time)
        }
        func releaseAll() { base.releaseAll() }
        func expire(now: ContinuousClock.Instant) -> ContinuousClock.Instant? { base.expire(now: now) }
        func emitIfHeard(_ event: () -> (location: Location, extra: JSONValue, time: String)) throws {
            try base.emitIfHeard(event)
        }
    }

    /// API.md §5: a subscribe that would create a type needs the admin token. One planned against a type that was
    /// removed before it opened is planned again, as the write it now is: it is refused without the token, and
    /// registers nothing (the bus registered the pattern again, unstored and unasked).
    @Test func aSubscriptionToATypeRemovedMeanwhileIsPlannedAgainAsAWrite() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(directory: directory)
        defer { try? store.close() }
        let type = EventType(pattern: try Pattern("/x"))
        try store.saveEventTypes([type], before: [nil])
        let bus = EventBus(types: [type])
        let journal = SubscriptionJournal(store: store, bus: bus, logger: Logger(label: "test"))
        let raced = Mutex(false)
        let hub = RacingHub(base: LocalEventHub(types: bus, journal: journal)) { base, requests, ttl, registering in
            if !raced.withLock({ $0 }) {
                raced.withLock { $0 = true }
                try? store.deleteEventType(type)
                _ = try? bus.remove(pattern: type.pattern)
            }
            return try base.subscribe(requests, ttl: ttl, registering: registering)
        }
        let types = LiveEventTypes(hub: hub, store: store)
        #expect(throws: LinkError.self) {
            try types.subscribe([EventTypeRequest(path: "/x")], ttl: .seconds(60)) {
                throw LinkError(.unauthorized, "a write")
            }
        }
        #expect(throws: LinkError.self) { try bus.type(pattern: type.pattern) }
        #expect(bus.subscriptionCount == 0)
        // With the token, the same subscription registers the type as a write does.
        _ = try types.subscribe([EventTypeRequest(path: "/x")], ttl: .seconds(60)) {}
        #expect(try store.loadEventTypes() == [type])
    }

    /// A subscription whose commit fails, but whose new type another subscription took up meanwhile: the bus keeps
    /// the type (``EventBus/undo(_:)``), and so does the store (it was taken back from the store alone).
    @Test func aTypeAnotherSubscriptionTookUpStaysOnTheBusAndInTheStore() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(directory: directory)
        defer { try? store.close() }
        let bus = EventBus()
        let hub = RacingHub(base: LocalEventHub(types: bus)) { base, requests, ttl, _ in
            let opened = try base.types.open(requests, ttl: ttl, now: .now)
            // Another connection subscribes to the new type before this one's commit fails.
            _ = try base.types.subscribe([EventTypeRequest(path: "/t/:x")], ttl: ttl, now: .now)
            #expect(!base.types.undo(opened))
            throw LinkError(.unavailable, "The store cannot write: the disk is full")
        }
        let types = LiveEventTypes(hub: hub, store: store)
        #expect(throws: LinkError.self) {
            try types.subscribe([EventTypeRequest(path: "/t/:x", name: "t")], ttl: .seconds(60)) {}
        }
        let type = EventType(pattern: try Pattern("/t/:x"), name: "t")
        #expect(try bus.type(named: "t") == type)
        #expect(try store.loadEventTypes() == [type])
    }
}
