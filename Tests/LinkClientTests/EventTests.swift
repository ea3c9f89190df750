import Foundation
import LinkClient
import Testing

/// Emit and the event sequence: cursors, `missed`, cancellation, expiry and a server restart.
@Suite struct EventTests {
    /// Emits `extra` (numbered from `first`) until a subscription receives one: the sequence subscribes (and so
    /// registers the type) on its first `next()`, in another task. Returns the number that was delivered.
    ///
    /// In the full suite, blocking tests hold the cooperative pool's two threads for a minute at times; an emit
    /// then outlasts URLSession's 60 s timeout. Before, that ended this helper with the error while the test's
    /// subscriber, with no deadline of its own, went on polling for an event no one would emit: the stuck runs
    /// (docs/reliability.md). A timed-out emit is tried again, and the helper is bounded by time, not by tries.
    static func emitUntilDelivered(_ client: LinkClient, location: String, first: Int) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(120)
        var number = first
        while ContinuousClock.now < deadline {
            defer { number += 1 }
            do {
                if try await client.emit(location: location, extra: ["n": .integer(Int64(number))]).delivered > 0 {
                    return number
                }
            } catch let error as LinkServiceError where error.code == .noMatch {
                // The type is not registered yet.
            } catch let error as LinkTransportError where error.kind == .timedOut {
                // Held past the request timeout while blocking tests had the pool's threads: not what is tested.
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Collector.Timeout()
    }

    /// A backend registers the type it emits to (an emit no type matches is 404 `no_match`): `true` when new,
    /// `false` when it existed as given; a write.
    @Test func aTypeRegisteredExplicitlyTakesEmits() async throws {
        try await withLiveServer { (server) async throws in
            let admin = server.client()
            let missing = try await #require(throws: LinkServiceError.self) {
                try await admin.emit(location: "/campaigns/SPRING")
            }
            #expect(missing.code == .noMatch)
            #expect(try await admin.registerEventType(path: "/campaigns/:name", name: "campaign"))
            #expect(try await !admin.registerEventType(path: "/campaigns/:name", name: "campaign"))
            #expect(try await admin.emit(location: "/campaigns/SPRING").matched == ["campaign"])
            let denied = try await #require(throws: LinkServiceError.self) {
                try await server.client(admin: false).registerEventType(path: "/other")
            }
            #expect(denied.code == .unauthorized)
        }
    }

    @Test func emitAnswersWhatMatched() async throws {
        try await withLiveServer { server in
            let client = server.client()
            let events = Collector(client.events([.path("/seek/:progress", name: "onSeekProgress")], wait: 2))
            defer { Task { await events.cancel() } }
            _ = try await Self.emitUntilDelivered(client, location: "/seek/0", first: 0)
            let result = try await client.emit(name: "onSeekProgress", params: ["progress": "30"], query: ["x": "1"])
            #expect(result.delivered == 1)
            #expect(result.matched == ["onSeekProgress"])
            #expect(result.seq > 0)
            let first = try await events.nextEvent()
            #expect(first.location == "/seek/0")
            let event = try await events.nextEvent()
            #expect(event.seq == result.seq)
            #expect(event.name == "onSeekProgress")
            #expect(event.pattern == "/seek/:progress")
            #expect(event.location == "/seek/30?x=1")
            #expect(event.params == ["progress": "30"])
            #expect(event.query == ["x": "1"])
            #expect(event.extra == .null)
            #expect(abs(event.time.timeIntervalSinceNow) < 60)
            let unmatched = try await #require(throws: LinkServiceError.self) {
                try await client.emit(location: "/nowhere")
            }
            #expect(unmatched.code == .noMatch)
        }
    }

    @Test func deliversEveryEventOnceInOrderAcrossPolls() async throws {
        try await withLiveServer { server in
            let client = server.client()
            let events = Collector(client.events([.path("/n/:i")], wait: 1))
            defer { Task { await events.cancel() } }
            let start = try await Self.emitUntilDelivered(client, location: "/n/x", first: 0)
            for index in 1...50 {
                try await client.emit(
                    location: "/n/\(index)", extra: ["i": .integer(9_007_199_254_740_992 + Int64(index))])
            }
            var seqs: [Int] = []
            let first = try await events.nextEvent()
            #expect(first.extra["n"] == .integer(Int64(start)))
            for index in 1...50 {
                let event = try await events.nextEvent()
                #expect(event.params["i"] == String(index))
                // Past 2^53 (where a `Double` holds only every other whole number), exact.
                #expect(event.extra["i"]?.integerValue == 9_007_199_254_740_992 + Int64(index))
                seqs.append(event.seq)
            }
            #expect(seqs == seqs.sorted())
            #expect(Set(seqs).count == 50)
            // Polls with wait 1 s keep timing out with nothing new: nothing arrives twice.
            try await client.emit(location: "/n/last")
            #expect(try await events.nextEvent().location == "/n/last")
        }
    }

    @Test func reportsEventsDroppedFromAFullQueue() async throws {
        var settings = LiveServer.Settings()
        settings.queueLimit = 3
        try await withLiveServer(settings) { server in
            let client = server.client()
            try await bounded { try await Self.dropsFromAFullQueue(client) }
        }
    }

    private static func dropsFromAFullQueue(_ client: LinkClient) async throws {
        let sequence = client.events([.path("/q/:i")], wait: 5)
        var iterator = sequence.makeAsyncIterator()
        // The first next() subscribes and waits; an emit from another task ends that wait.
        let emitter = Task {
            _ = try await Self.emitUntilDelivered(client, location: "/q/first", first: 0)
        }
        guard case .event(let first)? = try await iterator.next() else {
            Issue.record("expected an event")
            return
        }
        try await emitter.value
        #expect(first.location == "/q/first")
        // While the consumer is busy, ten more arrive; the queue keeps the newest three.
        for index in 1...10 { try await client.emit(location: "/q/\(index)") }
        var elements: [EventSequence.Element] = []
        while elements.count < 4, let element = try await iterator.next() { elements.append(element) }
        #expect(elements.first == .missed(7))
        let locations = elements.dropFirst().compactMap { element -> String? in
            if case .event(let event) = element { return event.location }
            return nil
        }
        #expect(locations == ["/q/8", "/q/9", "/q/10"])
    }

    @Test func cancellingTheConsumerDeletesTheSubscription() async throws {
        try await withLiveServer { server in
            let client = server.client()
            let sequence = client.events([.path("/c/:i")], wait: 60)
            let subscription = Box<String?>(nil)
            let consumer = Task {
                var iterator = sequence.makeAsyncIterator()
                _ = try await iterator.next()
                subscription.value = iterator.subscriptionID
                // The next poll waits up to 60 s; cancelling must end it at once.
                return try await iterator.next()
            }
            _ = try await Self.emitUntilDelivered(client, location: "/c/1", first: 0)
            #expect(try await waitUntil { subscription.value != nil })
            try await Task.sleep(for: .milliseconds(200))  // not needed for correctness: the poll is likelier waiting
            let started = ContinuousClock.now
            consumer.cancel()
            // Bounded: were cancelling broken, the consumer would poll for ever.
            #expect(try await bounded { try await consumer.value } == nil)
            // Far below the poll's 60 s (and far above "at once": blocking tests in the full suite hold the pool's
            // threads for tens of seconds at times).
            #expect(ContinuousClock.now - started < .seconds(45))
            // The subscription is deleted (a cancelled consumer does not wait for it): then an emit reaches nobody.
            #expect(try await waitUntil { try await client.emit(location: "/c/2").delivered == 0 })
        }
    }

    /// Leaving the loop (`break`) without cancelling deletes the subscription too, rather than leave it queuing
    /// events until its `ttl`.
    @Test func breakingOutOfTheLoopDeletesTheSubscription() async throws {
        try await withLiveServer { server in
            let client = server.client()
            let sequence = client.events([.path("/b/:i")], wait: 1)
            let consumer = Task {
                for try await element in sequence {
                    if case .event = element { break }
                }
            }
            _ = try await Self.emitUntilDelivered(client, location: "/b/1", first: 0)
            try await bounded { try await consumer.value }
            #expect(try await waitUntil { try await client.emit(location: "/b/2").delivered == 0 })
        }
    }

    /// A subscription lost again before any poll of it was answered (here a server that never knows it) is made
    /// anew after the back-off, not at once in a loop that creates subscriptions as fast as the network allows.
    @Test func aSubscriptionLostBeforeAnyPollBacksOff() async throws {
        let created = #"{"id":"s1","cursor":0,"ttl":300}"#
        let lost = #"{"error":{"code":"subscription_not_found","message":"No subscription s1","details":{}}}"#
        let server = CannedServer { line in
            if line.hasPrefix("POST /v1/events/subscriptions ") {
                return "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(created.utf8.count)\r\n\r\n\(created)"
            }
            if line.hasPrefix("GET /v1/events/subscriptions/s1?") {
                return "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(lost.utf8.count)\r\n\r\n\(lost)"
            }
            return "HTTP/1.1 204 No Content\r\n\r\n"
        }
        let client = server.client()
        // A back-off of days: a re-subscription that waited for it would never come within the test.
        let events = client.events([.path("/e")], wait: 0, backoff: Backoff(initial: 1e6, maximum: 1e6))
        let consumer = Task { for try await _ in events {} }
        defer { consumer.cancel() }
        let polls = { server.received.requests(startingWith: "GET /v1/events/subscriptions/s1?").count }
        #expect(try await waitUntil { polls() >= 1 })
        // Without the back-off the loop made dozens of subscriptions in this second.
        try await Task.sleep(for: .seconds(1))
        #expect(server.received.requests(startingWith: "POST /v1/events/subscriptions ").count == 1)
        #expect(polls() == 1)
    }

    @Test func anExpiredSubscriptionIsReplacedAndTheGapReported() async throws {
        try await withLiveServer { server in
            let client = server.client()
            try await bounded { try await Self.replacesAnExpiredSubscription(client) }
        }
    }

    private static func replacesAnExpiredSubscription(_ client: LinkClient) async throws {
        var iterator = client.events([.path("/e/:i")], wait: 1, ttl: 1).makeAsyncIterator()
        let emitter = Task { try await Self.emitUntilDelivered(client, location: "/e/1", first: 0) }
        // On a loaded machine the 1 s ttl may pass before the first poll: the client then reports the
        // replacement first. Take the first event, whatever came before it.
        var firstEvent: Event?
        while firstEvent == nil, let item = try await iterator.next() {
            if case .event(let event) = item { firstEvent = event }
        }
        guard let first = firstEvent else {
            Issue.record("expected an event")
            return
        }
        _ = try await emitter.value
        #expect(first.location == "/e/1")
        let firstID = iterator.subscriptionID
        // Nobody polls for longer than the ttl: the server expires the subscription.
        try await Task.sleep(for: .seconds(3))
        #expect(try await client.emit(location: "/e/lost").delivered == 0)
        #expect(try await iterator.next() == .resubscribed(lastSeq: first.seq))
        #expect(iterator.subscriptionID != firstID)
        let next = Task { () async throws -> Event? in
            // On a loaded machine the 1 s ttl may pass again between two polls: the client then reports
            // another replacement before the event.
            while let item = try await iterator.next() {
                if case .event(let event) = item { return event }
            }
            return nil
        }
        _ = try await Self.emitUntilDelivered(client, location: "/e/2", first: 100)
        guard let event = try await next.value else {
            Issue.record("expected an event")
            return
        }
        #expect(event.location == "/e/2")
    }

    @Test func theSubscriptionSurvivesAServerRestart() async throws {
        try await withLiveServer { server in
            let client = server.client()
            let events = Collector(
                client.events(
                    [.path("/r/:i", name: "restartable")], wait: 2,
                    backoff: Backoff(initial: .milliseconds(50), maximum: .milliseconds(500))))
            defer { Task { await events.cancel() } }
            let before = try await Self.emitUntilDelivered(client, location: "/r/1", first: 0)
            let first = try await events.nextEvent()
            #expect(first.extra["n"] == .integer(Int64(before)))

            try server.restart()
            // The type and the subscription survived the restart (API.md §5): the sequence goes on polling the same
            // subscription, with nothing to report in between.
            let after = try await Self.emitUntilDelivered(client, location: "/r/2", first: 1000)
            let next = try await events.next()
            guard case .event(let event) = next else {
                Issue.record("expected the event after the restart, got \(String(describing: next))")
                return
            }
            #expect(event.extra["n"] == .integer(Int64(after)))
            #expect(event.seq > first.seq)
            #expect(event.name == "restartable")
        }
    }

    @Test func subscribingToAnUnknownNameEndsTheSequenceWithTheError() async throws {
        try await withLiveServer { server in
            let client = server.client(admin: false)
            let error = try await #require(throws: LinkServiceError.self) {
                for try await _ in client.events([.name("neverRegistered")]) {}
            }
            #expect(error.code == .unknownName)
            let denied = try await #require(throws: LinkServiceError.self) {
                for try await _ in client.events([.path("/new/:type")]) {}
            }
            #expect(denied.code == .unauthorized)
        }
    }
}
