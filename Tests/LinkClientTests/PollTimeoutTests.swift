import Foundation
import LinkClient
import Testing

/// API.md §14: "each long-poll request sets its timeout to `wait` + 15 s …, and a timeout is retried at once,
/// without back-off". A canned server answers the subscribe and never answers a poll.
@Suite struct PollTimeoutTests {
    @Test func aTimedOutPollIsRetriedAtOnceAfterWaitPlus15Seconds() async throws {
        let created = #"{"id":"s1","cursor":0}"#
        let server = CannedServer { line in
            if line.hasPrefix("POST /v1/events/subscriptions ") {
                return "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\n"
                    + "Location: /v1/events/subscriptions/s1\r\nContent-Length: \(created.utf8.count)\r\n\r\n\(created)"
            }
            if line.hasPrefix("DELETE ") { return "HTTP/1.1 204 No Content\r\n\r\n" }
            return nil
        }
        let client = server.client()
        // A back-off of days: a retry that waited for it would never come within the test.
        let events = client.events([.path("/e")], wait: 0, backoff: Backoff(initial: 1e6, maximum: 1e6))
        let consumer = Task {
            for try await _ in events {}
        }
        defer { consumer.cancel() }
        let polls = { server.received.requests(startingWith: "GET /v1/events/subscriptions/s1?") }
        let deadline = ContinuousClock.now + .seconds(90)
        while polls().count < 2 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let seen = polls()
        try #require(seen.count >= 2, "the timed-out poll was not retried")
        // The first poll was given `wait` (0) + 15 s before it timed out, not URLSession's 60 s nor less.
        let gap = seen[1].at - seen[0].at
        #expect(gap >= .seconds(14) && gap < .seconds(45), "\(gap)")
        #expect(seen[0].line.contains("wait=0"))
    }
}
