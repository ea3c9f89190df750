import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// `GET /v1/stats/clicks` (API.md §8) over HTTP, with counters recorded through the application's ledger.
@Suite struct StatsEndpointTests {
    static let today = UTCCalendar.day(ofMilliseconds: WallClock.milliseconds())

    private func record(
        _ server: TestServer, _ pattern: String, _ name: String?, _ kind: ClickKind, times: Int,
        platform: String = "ios", day: Int64 = today
    ) {
        for _ in 0..<times {
            server.application.clicks.record(
                ClickKey(day: day, pattern: pattern, platform: platform, kind: kind), name: name)
        }
    }

    @Test func countsAreVisibleAtOnceAndSurviveARestart() throws {
        let dataDir = TestServer.temporaryDirectory()
        try withServer(dataDir: dataDir) { (server) throws in
            let client = server.client()
            #expect(try client.post("/v1/routes", ["path": "/users/:id", "name": "user"]).status == 201)
            record(server, "/users/:id", "user", .click, times: 3)
            record(server, "/users/:id", "user", .open, times: 2, platform: "android")
            record(server, "", nil, .unmatched, times: 4, platform: "desktop")
            record(server, "", nil, .bot, times: 1, platform: "crawler")
            let stats = try client.get("/v1/stats/clicks")
            #expect(stats.status == 200)
            #expect(stats.json?["clicks"] == 3)
            #expect(stats.json?["opens"] == 2)
            #expect(stats.json?["unmatched"] == 4)
            #expect(stats.json?["bots"] == 1)
            #expect(stats.json?["byPlatform"] == ["ios": 3, "android": 2, "desktop": 0])
            #expect(stats.json?["byDay"]?.arrayValue?.count == 30)
            // The default range ends today: the day `today` was read on, or the next if midnight came meanwhile.
            let now = UTCCalendar.day(ofMilliseconds: WallClock.milliseconds())
            #expect([UTCCalendar.day(Self.today), UTCCalendar.day(now)].contains(stats.json?["to"]?.stringValue ?? ""))
            #expect(
                stats.json?["routes"] == [
                    ["name": "user", "pattern": "/users/:id", "clicks": 3, "opens": 2, "bots": 0]
                ])
        }
        // A clean stop writes what the batch writer still held.
        try withServer(dataDir: dataDir) { (server) throws in
            let client = server.client()
            let stats = try client.get("/v1/stats/clicks?route=user")
            #expect(stats.json?["clicks"] == 3)
            #expect(stats.json?["opens"] == 2)
            #expect(stats.json?["unmatched"] == 0)
            #expect(stats.json?["bots"] == 0)
        }
    }

    @Test func theBatchWriterStoresWithinASecond() throws {
        try withServer { (server) throws in
            record(server, "/p", nil, .click, times: 5, platform: "desktop")
            let range = DayRange(from: Self.today, to: Self.today)
            #expect(
                waitUntil {
                    let stored = (try? server.application.store.loadClickCounts(from: range.from, to: range.to)) ?? []
                    return stored.map(\.count).reduce(0, +) == 5
                })
        }
    }

    @Test func rangesAndNames() throws {
        try withServer { (server) throws in
            let client = server.client()
            record(server, "/p", nil, .click, times: 1, day: UTCCalendar.days(parsing: "2026-01-15")!)
            let january = try client.get("/v1/stats/clicks?from=2026-01-01&to=2026-01-31")
            #expect(january.json?["from"] == "2026-01-01")
            #expect(january.json?["byDay"]?.arrayValue?.count == 31)
            #expect(
                january.json?["byDay"]?.arrayValue?[14] == ["day": "2026-01-15", "clicks": 1, "opens": 0, "bots": 0])
            #expect(try client.get("/v1/stats/clicks?from=2026-02-01&to=2026-02-28").json?["clicks"] == 0)
            // A range implied to start before year 0 starts on its first day: every day stays YYYY-MM-DD.
            let first = try client.get("/v1/stats/clicks?to=0000-01-05")
            #expect(first.json?["from"] == "0000-01-01")
            #expect(
                first.json?["byDay"]?.arrayValue?.compactMap { $0["day"]?.stringValue }
                    == (1...5).map { "0000-01-0\($0)" })
            for query in ["from=2026-02-30", "from=2026-03-01&to=2026-02-01", "from=2025-01-01&to=2026-01-31", "to=x"] {
                let reply = try client.get("/v1/stats/clicks?\(query)")
                #expect(reply.status == 400, "\(query)")
                #expect(reply.errorCode == "invalid_request", "\(query)")
            }
            #expect(try client.get("/v1/stats/clicks?route=nobody").errorCode == "unknown_name")
        }
    }

    @Test func readsNeedTheReadToken() throws {
        try withServer({ $0.readToken = "reader" }) { (server) throws in
            let client = server.client()
            #expect(try client.get("/v1/stats/clicks").status == 401)
            #expect(try client.get("/v1/stats/clicks", headers: ["Authorization": "Bearer reader"]).status == 200)
        }
    }
}
