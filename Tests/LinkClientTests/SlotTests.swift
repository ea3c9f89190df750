import Foundation
import LinkClient
import Testing

/// Presentation slots (API.md §11): priorities, dismissal, and the `slotChanged` event.
@Suite struct SlotTests {
    @Test func presentReplaceRefuseDismiss() async throws {
        try await withLiveServer { server in
            let admin = server.client()
            let app = server.client(admin: false)
            #expect(try await app.presentation(in: "home") == nil)

            #expect(
                try await admin.present(in: "home", id: "promo", priority: 1, payload: ["title": "Sale"])
                    == .presented(replaced: nil))
            let showing = try #require(try await app.presentation(in: "home"))
            #expect(showing.id == "promo")
            #expect(showing.priority == 1)
            #expect(showing.payload == ["title": "Sale"])
            #expect(showing.expires > showing.since)

            let outcome = try await admin.present(in: "home", id: "alert", priority: 5, ttl: 60)
            guard case .presented(let replaced?) = outcome else {
                Issue.record("expected a replacement, got \(outcome)")
                return
            }
            #expect(replaced.id == "promo")
            let refused = try await admin.present(in: "home", id: "low", priority: 5)
            guard case .refused(let current) = refused else {
                Issue.record("expected a refusal, got \(refused)")
                return
            }
            #expect(current.id == "alert")
            #expect(current.priority == 5)

            let notCurrent = try await #require(throws: LinkServiceError.self) {
                try await app.dismiss(in: "home", id: "promo")
            }
            #expect(notCurrent.code == .notCurrent)
            try await app.dismiss(in: "home", id: "alert")
            #expect(try await app.presentation(in: "home") == nil)
            let denied = try await #require(throws: LinkServiceError.self) {
                try await app.present(in: "home", id: "x", priority: 1)
            }
            #expect(denied.code == .unauthorized)
        }
    }

    /// Slot names and ids may be `..` (§11): sent escaped, not resolved away by URLSession (a present went to
    /// `POST /v1/present`).
    @Test func aSlotAndAnIdNamedDotDotAreReached() async throws {
        try await withLiveServer { server in
            let admin = server.client()
            #expect(try await admin.present(in: "..", id: "..", priority: 1) == .presented(replaced: nil))
            #expect(try await admin.presentation(in: "..")?.id == "..")
            try await admin.dismiss(in: "..", id: "..")
            #expect(try await admin.presentation(in: "..") == nil)
        }
    }

    /// Priorities are 64-bit integers (§11): every one is sent exactly, the extremes included.
    @Test(arguments: [Int.max, Int.min, (1 << 53) + 1])
    func everyPriorityIsSentExactly(priority: Int) async throws {
        try await withLiveServer { (server) async throws in
            let admin = server.client()
            #expect(try await admin.present(in: "edge", id: "p", priority: priority) == .presented(replaced: nil))
            #expect(try await admin.presentation(in: "edge")?.priority == priority)
        }
    }

    @Test func aDeviceLearnsOfChangesThroughEvents() async throws {
        try await withLiveServer { server in
            let admin = server.client()
            let app = server.client(admin: false)
            let events = Collector(app.events([.name("slotChanged")], wait: 2))
            defer { Task { await events.cancel() } }
            // The sequence subscribes in its own task: present (updating the same presentation) until it hears.
            // Bounded by time, not tries, and a timed-out present is tried again: in the full suite, blocking tests
            // hold the cooperative pool's threads for a minute at times (docs/reliability.md).
            var received: EventSequence.Element?
            let deadline = ContinuousClock.now + .seconds(120)
            var priority = 0
            while received == nil, ContinuousClock.now < deadline {
                priority += 1
                do {
                    try await admin.present(in: "device-1", id: "hello", priority: priority, payload: "hi")
                } catch let error as LinkTransportError where error.kind == .timedOut {
                    continue
                }
                received = try? await events.next(timeout: .milliseconds(100))
            }
            guard case .event(let event)? = received else {
                Issue.record("no slotChanged event: \(String(describing: received))")
                return
            }
            #expect(event.name == "slotChanged")
            #expect(event.params["slot"] == "device-1")
            #expect(event.extra["current"]?["id"] == "hello")
            #expect(event.extra["current"]?["payload"] == "hi")
        }
    }
}
