import Dispatch
import Foundation
import LinkCore
import Synchronization
import Testing

extension PostgresSuites {
    /// The event bus across instances on one PostgreSQL database (API.md §5, §12): subscriptions made on one instance
    /// and polled on another, emits from a third, `seq` in commit order, `missed`, released polls, slots serialised.
    @Suite struct SharedEventTests {
        /// Three instances on a fresh database, with a small queue limit.
        static func three(queueLimit: Int = 1000) throws -> [ServerProcess] {
            let url = try PostgresTestDatabase.create()
            let path = TestServer.temporaryDirectory() + "/linkserver.json"
            try #"{"events": {"queueLimit": \#(queueLimit)}}"#.write(toFile: path, atomically: true, encoding: .utf8)
            return try (0..<3).map { _ in try MultiInstanceTests.instance(url, config: path) }
        }

        static func subscribe(_ port: UInt16, path: String = "/seek/:p") throws -> (id: String, cursor: Int) {
            let reply = try HTTPClient(port: port).post(
                "/v1/events/subscriptions", ["events": [["path": .string(path)]], "ttl": 60])
            #expect(reply.status == 201)
            return (try #require(reply.json?["id"]?.stringValue), try #require(reply.json?["cursor"]?.intValue))
        }

        static func emit(_ port: UInt16, _ loc: String) throws -> JSONValue {
            let reply = try HTTPClient(port: port).post("/v1/events/emit", ["loc": .string(loc)])
            #expect(reply.status == 200, "\(reply.text)")
            return try #require(reply.json)
        }

        static func poll(_ port: UInt16, _ id: String, after: Int, wait: Int = 0) throws -> HTTPClient.Reply {
            try HTTPClient(port: port).get("/v1/events/subscriptions/\(id)?after=\(after)&wait=\(wait)")
        }

        @Test func aSubscriptionMadeOnAIsPolledOnBAndReceivesEmitsFromC() throws {
            let (a, b, c) = try {
                let all = try Self.three()
                return (all[0], all[1], all[2])
            }()
            let subscription = try Self.subscribe(a.port)
            // The 201 means it is stored: B and C know it at once.
            #expect(try Self.poll(b.port, subscription.id, after: subscription.cursor).status == 200)
            #expect(
                waitUntil(timeout: PostgresSuites.withinOneSecond) {
                    (try? Self.emit(c.port, "/seek/0")["delivered"]?.intValue) == 1
                })
            var cursor = try #require(
                try Self.poll(b.port, subscription.id, after: subscription.cursor).json?["cursor"]?.intValue)
            // A poll waiting on B wakes when C emits, within 1 s.
            let answer = Mutex<HTTPClient.Reply?>(nil)
            let done = DispatchSemaphore(value: 0)
            let waitingCursor = cursor
            let bPort = b.port
            DispatchQueue.global().async {
                let reply = try? Self.poll(bPort, subscription.id, after: waitingCursor, wait: 8)
                answer.withLock { $0 = reply }
                done.signal()
            }
            #expect(
                waitUntil {
                    (try? HTTPClient(port: b.port).get("/metrics").text.contains("linkserver_polls_waiting 1")) == true
                })
            let emitted = ContinuousClock.now
            let seq = try #require(try Self.emit(c.port, "/seek/42")["seq"]?.intValue)
            #expect(done.wait(timeout: .now() + 5) == .success)
            #expect(ContinuousClock.now - emitted < PostgresSuites.withinOneSecond)
            let events = try #require(answer.withLock { $0 }?.json?["events"]?.arrayValue)
            #expect(events.map { $0["seq"]?.intValue } == [seq])
            #expect(events.first?["params"] == ["p": "42"])
            #expect(events.first?["pattern"] == "/seek/:p")
            cursor = try #require(answer.withLock { $0 }?.json?["cursor"]?.intValue)
            // Emits from all three, in `seq` order, each once per cursor; acknowledged ones are not delivered again.
            var seqs: [Int] = []
            for index in 0..<9 {
                seqs.append(
                    try #require(try Self.emit([a.port, b.port, c.port][index % 3], "/seek/\(index)")["seq"]?.intValue))
            }
            let batch = try #require(try Self.poll(a.port, subscription.id, after: cursor).json)
            #expect(batch["events"]?.arrayValue?.compactMap { $0["seq"]?.intValue } == seqs)
            #expect(seqs == seqs.sorted() && Set(seqs).count == 9)
            let next = try #require(batch["cursor"]?.intValue)
            #expect(next == seqs.last)
            #expect(try Self.poll(c.port, subscription.id, after: next).json?["events"]?.arrayValue?.isEmpty == true)
        }

        /// §12: "`seq` is global and strictly increasing in commit order". A poller moves its cursor on, from
        /// instance to instance, *while* six clients emit on all three: were `seq` taken before commit (a plain
        /// sequence), an event could commit below a cursor already handed out and never be delivered. Every event
        /// reaches the poller once, in strictly increasing `seq`.
        @Test func seqIsGlobalAndInCommitOrderUnderConcurrentEmits() throws {
            let servers = try Self.three()
            let ports = servers.map(\.port)
            let subscription = try Self.subscribe(servers[0].port)
            let returned = Mutex<[Int]>([])
            let emitting = Atomic<Bool>(true)
            let seen = Mutex<[Int]>([])
            let failure = Mutex<String?>(nil)
            let polling = DispatchGroup()
            DispatchQueue.global().async(group: polling) {
                var cursor = subscription.cursor
                var round = 0
                // Polls until an answer after the last emit returned brings nothing new.
                while true {
                    let last = !emitting.load(ordering: .acquiring)
                    let reply = try? Self.poll(ports[round % 3], subscription.id, after: cursor, wait: 1).json
                    guard let reply, let next = reply["cursor"]?.intValue else {
                        failure.withLock { $0 = "poll \(round) after \(cursor) failed: \(String(describing: reply))" }
                        break
                    }
                    let seqs = reply["events"]?.arrayValue?.compactMap { $0["seq"]?.intValue } ?? []
                    seen.withLock { $0 += seqs }
                    cursor = next
                    round += 1
                    if last, seqs.isEmpty { break }
                }
            }
            DispatchQueue.concurrentPerform(iterations: 6) { worker in
                for index in 0..<20 {
                    if let seq = try? Self.emit(ports[worker % 3], "/seek/\(worker)-\(index)")["seq"]?.intValue {
                        returned.withLock { $0.append(seq) }
                    }
                }
            }
            emitting.store(false, ordering: .releasing)
            #expect(polling.wait(timeout: .now() + 60) == .success)
            let emitted = returned.withLock { $0 }
            #expect(emitted.count == 120 && Set(emitted).count == 120)
            #expect(failure.withLock { $0 } == nil)
            let delivered = seen.withLock { $0 }
            #expect(delivered == emitted.sorted(), "missing: \(Set(emitted).subtracting(delivered).sorted())")
        }

        @Test func missedCountsAndAcknowledgementsHoldAcrossInstances() throws {
            let servers = try Self.three(queueLimit: 3)
            let subscription = try Self.subscribe(servers[0].port)
            var seqs: [Int] = []
            for index in 0..<5 {
                seqs.append(try #require(try Self.emit(servers[index % 3].port, "/seek/\(index)")["seq"]?.intValue))
            }
            let first = try #require(try Self.poll(servers[1].port, subscription.id, after: subscription.cursor).json)
            #expect(first["events"]?.arrayValue?.compactMap { $0["seq"]?.intValue } == Array(seqs.suffix(3)))
            #expect(first["missed"] == 2)
            // The answer was lost: the same poll on another instance reports the same.
            let again = try #require(try Self.poll(servers[2].port, subscription.id, after: subscription.cursor).json)
            #expect(again == first)
            let cursor = try #require(first["cursor"]?.intValue)
            let acknowledged = try #require(try Self.poll(servers[0].port, subscription.id, after: cursor).json)
            #expect(acknowledged["missed"] == 0 && acknowledged["events"] == [])
        }

        /// `HEAD` of a poll on another instance is safe (RFC 9110 §9.2.1): it acknowledges nothing and its length
        /// is the one a GET would get.
        @Test func aHeadOfAPollAcknowledgesNothingOnAnyInstance() throws {
            let servers = try Self.three()
            let subscription = try Self.subscribe(servers[0].port)
            let seqs = try (1...2).map { try #require(try Self.emit(servers[1].port, "/seek/\($0)")["seq"]?.intValue) }
            let path = "/v1/events/subscriptions/\(subscription.id)"
            let first = try #require(try Self.poll(servers[0].port, subscription.id, after: subscription.cursor).json)
            #expect(first["events"]?.arrayValue?.compactMap { $0["seq"]?.intValue } == seqs)
            let head = try HTTPClient(port: servers[2].port).request("HEAD", "\(path)?after=\(seqs[1])")
            #expect(head.status == 200 && head.body.isEmpty)
            let again = try #require(try Self.poll(servers[1].port, subscription.id, after: subscription.cursor).json)
            #expect(again == first)
            let acknowledged = try Self.poll(servers[0].port, subscription.id, after: seqs[1])
            #expect(acknowledged.json?["events"] == [])
            #expect(head.header("Content-Length") == String(acknowledged.body.count))
            #expect(
                try HTTPClient(port: servers[1].port).request("HEAD", "/v1/events/subscriptions/nope").status == 404)
        }

        /// An `after` past every `seq` (a cursor kept across a reset) acknowledges nothing to come: the next event
        /// is still delivered to a poll that sends it again.
        @Test func anAfterPastEverySeqSwallowsNothingLater() throws {
            let servers = try Self.three()
            let subscription = try Self.subscribe(servers[0].port)
            let far = subscription.cursor + 1_000_000
            #expect(try Self.poll(servers[1].port, subscription.id, after: far).json?["events"] == [])
            let seq = try #require(try Self.emit(servers[2].port, "/seek/1")["seq"]?.intValue)
            let reply = try #require(try Self.poll(servers[0].port, subscription.id, after: far).json)
            #expect(reply["events"]?.arrayValue?.compactMap { $0["seq"]?.intValue } == [seq])
            #expect(reply["cursor"]?.intValue == seq)
        }

        @Test func aPollOnAnotherInstanceReleasesTheWaitingOneAndCancelReleasesToo() throws {
            let servers = try Self.three()
            let ports = servers.map(\.port)
            let subscription = try Self.subscribe(servers[0].port)
            for (second, close) in [(servers[1], false), (servers[2], true)] {
                let done = DispatchSemaphore(value: 0)
                let answer = Mutex<HTTPClient.Reply?>(nil)
                DispatchQueue.global().async {
                    let reply = try? Self.poll(ports[0], subscription.id, after: subscription.cursor, wait: 9)
                    answer.withLock { $0 = reply }
                    done.signal()
                }
                #expect(
                    waitUntil {
                        (try? HTTPClient(port: servers[0].port).get("/metrics").text.contains(
                            "linkserver_polls_waiting 1"))
                            == true
                    })
                let started = ContinuousClock.now
                if close {
                    #expect(
                        try HTTPClient(port: second.port).request(
                            "DELETE", "/v1/events/subscriptions/\(subscription.id)", json: .null
                        ).status == 204)
                } else {
                    #expect(try Self.poll(second.port, subscription.id, after: subscription.cursor).status == 200)
                }
                #expect(done.wait(timeout: .now() + 5) == .success)
                #expect(ContinuousClock.now - started < PostgresSuites.withinOneSecond + .seconds(1))
                #expect(answer.withLock { $0 }?.json?["events"] == [])
            }
            #expect(try Self.poll(servers[1].port, subscription.id, after: 0).errorCode == "subscription_not_found")
        }

        @Test func presentsIntoOneSlotAreSerialisedAcrossInstances() throws {
            let servers = try Self.three()
            let ports = servers.map(\.port)
            let watch = try #require(
                try HTTPClient(port: ports[0]).post(
                    "/v1/events/subscriptions", ["events": [["name": "slotChanged"]], "ttl": 60]
                ).json)
            let priorities = Array(1...24).shuffled()
            DispatchQueue.concurrentPerform(iterations: priorities.count) { index in
                _ = try? HTTPClient(port: ports[index % 3]).post(
                    "/v1/slots/home/present",
                    ["id": .string("p\(priorities[index])"), "priority": .int(priorities[index]), "ttl": 60])
            }
            // Whatever the interleaving, the highest priority shows, on every instance.
            for server in servers {
                #expect(
                    waitUntil(timeout: PostgresSuites.withinOneSecond) {
                        (try? HTTPClient(port: server.port).get("/v1/slots/home").json?["current"]?["id"]) == "p24"
                    })
            }
            // The events tell the changes in the order they were committed: each replaces what the one before it
            // showed (a change and its event commit together; they were two transactions, and a change made on
            // another instance in between could take the earlier seq).
            var events: [JSONValue] = []
            var cursor = try #require(watch["cursor"]?.intValue)
            let id = try #require(watch["id"]?.stringValue)
            while events.last?["extra"]?["current"]?["id"] != "p24" {
                let answer = try #require(try Self.poll(ports[events.count % 3], id, after: cursor, wait: 5).json)
                let received = answer["events"]?.arrayValue ?? []
                #expect(!received.isEmpty, "the events stopped before p24's")
                if received.isEmpty { break }
                events += received
                cursor = try #require(answer["cursor"]?.intValue)
            }
            for (before, event) in zip(events, events.dropFirst()) {
                #expect(event["extra"]?["replaced"]?["id"] == before["extra"]?["current"]?["id"], "\(event)")
            }
            #expect(events.first?["extra"]?["replaced"] == .null)
        }
        /// §11: "a presentation that expired while the service was down is emptied at start and its `expired` event
        /// emitted": seen by a subscription kept in the shared store across the instance's `kill -9`.
        @Test func aPresentationThatExpiredWhileDownIsEmptiedAtStartWithItsEvent() throws {
            let url = try PostgresTestDatabase.create()
            let config = try MultiInstanceTests.configFile()
            let folder = TestServer.temporaryDirectory()
            let first = try MultiInstanceTests.instance(url, config: config, dataDir: folder)
            let subscription = try Self.subscribe(first.port, path: "/slots/:slot")
            let present = try HTTPClient(port: first.port).post(
                "/v1/slots/home/present", ["id": "sale", "priority": 5, "ttl": 3])
            #expect(present.json?["presented"] == true)
            let expires = try #require(
                try HTTPClient(port: first.port).get("/v1/slots/home").json?["current"]?["expires"]?.stringValue)
            let deadline = try #require(UTCCalendar.milliseconds(parsing: expires))
            first.signal(SIGKILL)
            _ = try first.waitForExit()
            // Killed while the presentation still showed: its end comes while no instance runs.
            #expect(Int64(Date().timeIntervalSince1970 * 1000) < deadline, "the kill came after the presentation ended")
            #expect(
                waitUntil(timeout: .seconds(8)) { Int64(Date().timeIntervalSince1970 * 1000) > deadline + 100 })

            let second = try MultiInstanceTests.instance(url, config: config, dataDir: folder)
            #expect(try HTTPClient(port: second.port).get("/v1/slots/home").json?["current"] == .null)
            let events = try #require(
                try Self.poll(second.port, subscription.id, after: subscription.cursor, wait: 5).json?["events"]?
                    .arrayValue)
            #expect(events.map { $0["extra"]?["reason"] } == ["presented", "expired"], "\(events)")
            #expect(events.last?["location"] == "/slots/home")
            #expect(events.last?["extra"]?["current"] == .null)
        }

        @Test func aSubscriptionExpiresOnEveryInstanceWhenUnpolledForItsTTL() throws {
            let servers = try Self.three()
            let reply = try HTTPClient(port: servers[0].port).post(
                "/v1/events/subscriptions", ["events": [["path": "/seek/:p"]], "ttl": 1])
            let id = try #require(reply.json?["id"]?.stringValue)
            // Nobody polls it: a sweep on some instance removes it, and every instance's count follows.
            for server in servers {
                #expect(
                    waitUntil(timeout: .seconds(10)) {
                        (try? HTTPClient(port: server.port).get("/metrics").text.contains(
                            "linkserver_subscriptions_open 0")) == true
                    })
            }
            #expect(try Self.poll(servers[2].port, id, after: 0).errorCode == "subscription_not_found")
            #expect(try Self.emit(servers[1].port, "/seek/1")["delivered"] == 0)
        }
        /// API.md §5: the `ttl` counts from the end of the last poll; a poll answered at once ends at once, however
        /// long its `wait` (it counted from the `wait`'s deadline: a subscription polled once with `wait=20` lived
        /// 20 s past its `ttl`).
        @Test func aPollAnsweredAtOnceStartsTheTTLThen() throws {
            let servers = try Self.three()
            let reply = try HTTPClient(port: servers[0].port).post(
                "/v1/events/subscriptions", ["events": [["path": "/seek/:p"]], "ttl": 1])
            let id = try #require(reply.json?["id"]?.stringValue)
            let second = try #require(
                try HTTPClient(port: servers[0].port).post(
                    "/v1/events/subscriptions", ["events": [["path": "/seek/:p"]], "ttl": 1]
                ).json?["id"]?.stringValue)
            #expect(try Self.emit(servers[0].port, "/seek/1")["delivered"] == 2)
            for subscription in [id, second] {
                let answered = try Self.poll(servers[1].port, subscription, after: 0, wait: 20)
                #expect(answered.json?["events"]?.arrayValue?.count == 1)
            }
            // Unpolled since: an emit reaches them no more once their second is up (emits do not keep them alive).
            #expect(
                waitUntil(timeout: .seconds(6)) {
                    (try? Self.emit(servers[2].port, "/seek/2")["delivered"]?.intValue) == 0
                })
            #expect(try Self.poll(servers[2].port, id, after: 0).errorCode == "subscription_not_found")
            // Nor can one past its ttl be cancelled, before the sweep has removed it as after.
            let cancel = try HTTPClient(port: servers[1].port).request("DELETE", "/v1/events/subscriptions/\(second)")
            #expect(cancel.status == 404 && cancel.errorCode == "subscription_not_found")
        }

        @Test func aTypeRegisteredOnAIsUsableOnBAtOnce() throws {
            let servers = try Self.three()
            for index in 0..<5 {
                let registered = try HTTPClient(port: servers[0].port).post(
                    "/v1/events", ["path": .string("/fresh\(index)/:p"), "name": .string("fresh\(index)")])
                #expect(registered.status == 201)
                // No waiting for the follower: the instance that has not seen the type yet reads the types again.
                let subscribed = try HTTPClient(port: servers[2].port).post(
                    "/v1/events/subscriptions", ["events": [["name": .string("fresh\(index)")]]])
                #expect(subscribed.status == 201, "\(subscribed.text)")
                let emitted = try HTTPClient(port: servers[1].port).post(
                    "/v1/events/emit", ["name": .string("fresh\(index)"), "params": ["p": "1"]])
                #expect(emitted.status == 200, "\(emitted.text)")
                #expect(emitted.json?["delivered"] == 1)
            }
        }

        /// A removed type's subscriptions stop receiving it (API.md §5), on every instance, and do not receive it
        /// again when the same pattern is registered anew; new subscriptions to it do.
        @Test func aRemovedTypeStaysRemovedForItsSubscriptionsWhenRegisteredAgain() throws {
            let servers = try Self.three()
            let (a, b, c) = (servers[0].port, servers[1].port, servers[2].port)
            let old = try Self.subscribe(a, path: "/gone/:p")
            #expect(try HTTPClient(port: b).request("DELETE", "/v1/events?pattern=/gone/:p").status == 204)
            #expect(try HTTPClient(port: c).post("/v1/events", ["path": "/gone/:p"]).status == 201)
            let fresh = try Self.subscribe(b, path: "/gone/:p")
            #expect(try Self.emit(c, "/gone/1")["delivered"] == 1)
            for port in [a, b, c] {
                #expect(try Self.poll(port, old.id, after: old.cursor).json?["events"] == [])
            }
            let received = try Self.poll(a, fresh.id, after: fresh.cursor).json?["events"]?.arrayValue ?? []
            #expect(received.map { $0["location"] } == ["/gone/1"])
        }

        /// API.md §5: events stay queued until acknowledged; removing their type stops new ones, not those queued
        /// (as the embedded bus keeps them), on every instance, until a poll acknowledges them.
        @Test func eventsQueuedBeforeTheirTypeIsRemovedAreStillDelivered() throws {
            let servers = try Self.three()
            let (a, b, c) = (servers[0].port, servers[1].port, servers[2].port)
            let subscription = try Self.subscribe(a, path: "/dl/:p")
            let other = try Self.subscribe(a, path: "/kept/:p")
            let first = try #require(try Self.emit(a, "/dl/1")["seq"]?.intValue)
            let second = try #require(try Self.emit(b, "/dl/2")["seq"]?.intValue)
            #expect(try HTTPClient(port: b).request("DELETE", "/v1/events?pattern=/dl/:p").status == 204)
            // Registered again, and emitted to: not for the old subscription.
            #expect(try HTTPClient(port: c).post("/v1/events", ["path": "/dl/:p"]).status == 201)
            #expect(try Self.emit(c, "/dl/3")["delivered"] == 0)
            for port in [a, b, c] {
                let answer = try Self.poll(port, subscription.id, after: subscription.cursor)
                let events = answer.json?["events"]?.arrayValue ?? []
                #expect(events.map { $0["seq"]?.intValue } == [first, second], "\(answer.text)")
                #expect(events.first?["pattern"] == "/dl/:p")
                #expect(events.first?["params"] == ["p": "1"])
                #expect(answer.json?["missed"] == 0)
            }
            // Acknowledged, they are gone; the subscription's other types go on as before.
            #expect(try Self.poll(c, subscription.id, after: second).json?["events"] == [])
            #expect(try Self.poll(a, other.id, after: other.cursor).json?["events"] == [])
        }

        /// A subscription the shared store refuses (too many) registers nothing, on the instance that planned its
        /// types too: the shared hub had put them on its bus before the store refused.
        @Test func aRefusedSubscriptionRegistersNoTypeOnAnyInstance() throws {
            let url = try PostgresTestDatabase.create()
            let path = TestServer.temporaryDirectory() + "/linkserver.json"
            try #"{"events": {"maxSubscriptions": 1}}"#.write(toFile: path, atomically: true, encoding: .utf8)
            let servers = try (0..<2).map { _ in try MultiInstanceTests.instance(url, config: path) }
            let (a, b) = (servers[0].port, servers[1].port)
            #expect(try HTTPClient(port: a).post("/v1/events", ["path": "/unnamed"]).status == 201)
            _ = try Self.subscribe(a, path: "/first")
            let refused = try HTTPClient(port: a).post(
                "/v1/events/subscriptions", ["events": [["path": "/refused"], ["path": "/unnamed", "name": "named"]]])
            #expect(refused.status == 429)
            // At once where it was refused (before the answer); on the other instance once it has followed the
            // store (which saw the types stored, then taken back).
            let rolledBack = { (port: UInt16) in
                let types = (try? HTTPClient(port: port).get("/v1/events").json?["events"]?.arrayValue) ?? []
                return !types.contains { $0["pattern"] == "/refused" }
                    && types.contains { $0["pattern"] == "/unnamed" && $0["name"] == .null }
            }
            #expect(rolledBack(a))
            #expect(waitUntil(timeout: .seconds(5)) { rolledBack(b) })
            // The name is free: binding it to another pattern is no conflict.
            #expect(try HTTPClient(port: a).post("/v1/events", ["path": "/other", "name": "named"]).status == 201)
        }

        /// Subscriptions on three instances at once, each naming the same new type: every one registers or finds it
        /// (the name is bound to that one pattern). Concurrent inserts of the same type once raced on the unique
        /// name in PostgreSQL and answered `name_conflict`; binding the name to another pattern still does.
        @Test func oneNewTypeNamedOnSeveralInstancesAtOnceIsOneType() throws {
            let servers = try Self.three()
            let ports = servers.map(\.port)
            let statuses = Mutex<[Int]>([])
            for round in 0..<30 {
                DispatchQueue.concurrentPerform(iterations: 6) { worker in
                    let body: JSONValue = [
                        "events": [["path": .string("/race\(round)/:p"), "name": .string("race\(round)")]]
                    ]
                    let status = (try? HTTPClient(port: ports[worker % 3]).post("/v1/events/subscriptions", body))?
                        .status
                    statuses.withLock { $0.append(status ?? 0) }
                }
            }
            #expect(statuses.withLock { $0 } == Array(repeating: 201, count: 180))
            let other = try HTTPClient(port: ports[1]).post(
                "/v1/events/subscriptions", ["events": [["path": "/elsewhere/:p", "name": "race0"]]])
            #expect(other.status == 409)
            #expect(other.json?["error"]?["code"] == "name_conflict")
        }

        /// §5, §12: one pattern given three different names at once, one on each instance (explicitly, or by
        /// subscribing), is named once: one request is answered 201 and the others 409 `name_conflict`, as if they had
        /// reached one instance one after the other; every instance lists the name that was answered 201. (All three
        /// were answered 201, and the last name replaced the others.) The same unnamed pattern registered at once is
        /// 201 once and 200 for the others ("when it exists as given").
        @Test func onePatternNamedDifferentlyOnThreeInstancesAtOnceKeepsTheNameAnswered201() throws {
            let servers = try Self.three()
            let ports = servers.map(\.port)
            for round in 0..<8 {
                let answers = Mutex<[(name: String, status: Int, code: JSONValue?)]>([])
                DispatchQueue.concurrentPerform(iterations: 3) { worker in
                    let name = "named\(round)_\(worker)"
                    let entry: JSONValue = ["path": .string("/named\(round)/:p"), "name": .string(name)]
                    let client = HTTPClient(port: ports[worker])
                    let reply =
                        round % 2 == 0
                        ? try? client.post("/v1/events", entry)
                        : try? client.post("/v1/events/subscriptions", ["events": [entry]])
                    answers.withLock { $0.append((name, reply?.status ?? 0, reply?.json?["error"]?["code"])) }
                }
                let all = answers.withLock { $0 }
                let named = all.filter { $0.status == 201 }
                #expect(named.count == 1, "round \(round): \(all)")
                #expect(
                    all.filter { $0.status == 409 && $0.code == "name_conflict" }.count == 2, "round \(round): \(all)")
                let winner = try #require(named.first?.name)
                for port in ports {
                    let types = try HTTPClient(port: port).get("/v1/events").json?["events"]?.arrayValue ?? []
                    let type = types.first { $0["pattern"] == .string("/named\(round)/:p") }
                    #expect(type?["name"] == .string(winner), "round \(round) on \(port)")
                }
            }
            let statuses = Mutex<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 3) { worker in
                let reply = try? HTTPClient(port: ports[worker]).post("/v1/events", ["path": "/unnamed/:p"])
                statuses.withLock { $0.append(reply?.status ?? 0) }
            }
            #expect(statuses.withLock { $0 }.sorted() == [200, 200, 201])
        }

        /// §5: a removed type's subscriptions stop receiving it, also once its pattern is registered again. A
        /// subscription by name on B made at the same moment as the type's removal on A either came first (and
        /// receives nothing of the pattern registered again) or after (404 `unknown_name`): it never holds the
        /// removed type to receive the new one.
        @Test func aSubscriptionRacingTheRemovalOfItsTypeNeverReceivesThePatternRegisteredAgain() throws {
            let servers = try Self.three()
            let a = HTTPClient(port: servers[0].port)
            for round in 0..<10 {
                let path = "/gone\(round)/:p"
                let name = "gone\(round)"
                #expect(try a.post("/v1/events", ["path": .string(path), "name": .string(name)]).status == 201)
                #expect(
                    waitUntil(timeout: PostgresSuites.withinOneSecond) {
                        (try? HTTPClient(port: servers[1].port).get("/v1/events").text.contains(name)) == true
                    })
                let subscribed = Mutex<HTTPClient.Reply?>(nil)
                let removed = Mutex<Int>(0)
                let portA = servers[0].port
                let portB = servers[1].port
                DispatchQueue.concurrentPerform(iterations: 2) { worker in
                    if worker == 0 {
                        let status = (try? HTTPClient(port: portA).request("DELETE", "/v1/events/\(name)"))?.status
                        removed.withLock { $0 = status ?? 0 }
                    } else {
                        let reply = try? HTTPClient(port: portB).post(
                            "/v1/events/subscriptions", ["events": [["name": .string(name)]], "ttl": 60])
                        subscribed.withLock { $0 = reply }
                    }
                }
                #expect(removed.withLock { $0 } == 204)
                let reply = try #require(subscribed.withLock { $0 })
                guard reply.status == 201 else {
                    #expect(reply.status == 404 && reply.errorCode == "unknown_name", "\(reply.status) \(reply.text)")
                    continue
                }
                let id = try #require(reply.json?["id"]?.stringValue)
                let cursor = try #require(reply.json?["cursor"]?.intValue)
                #expect([200, 201].contains(try a.post("/v1/events", ["path": .string(path)]).status))
                #expect(try a.post("/v1/events/emit", ["loc": .string("/gone\(round)/1")]).status == 200)
                let poll = try Self.poll(servers[2].port, id, after: cursor)
                #expect(poll.json?["events"] == [], "round \(round): \(poll.text)")
            }
        }
    }
}
