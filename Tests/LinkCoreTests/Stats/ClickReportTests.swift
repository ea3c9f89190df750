import Testing

@testable import LinkCore

@Suite struct ClickReportTests {
    static let nov1 = UTCCalendar.days(parsing: "2026-11-01")!

    func count(
        _ day: Int64, _ pattern: String, _ platform: String, _ kind: ClickKind, _ n: Int, name: String? = nil
    ) -> ClickCount {
        ClickCount(key: ClickKey(day: day, pattern: pattern, platform: platform, kind: kind), name: name, count: n)
    }

    @Test func sumsEveryFigureWithoutOverlap() throws {
        let d = Self.nov1
        let counts = [
            count(d, "/users/:id", "ios", .click, 5, name: "user"),
            count(d + 1, "/users/:id", "android", .click, 3, name: "user"),
            count(d + 1, "/users/:id", "ios", .open, 2, name: "user"),
            count(d + 2, "/users/:id", "preview", .bot, 4, name: "user"),
            count(d + 2, "", "crawler", .bot, 1),
            count(d + 2, "", "desktop", .unmatched, 6),
            count(d, "/promo", "desktop", .click, 7),
            count(d - 1, "/promo", "desktop", .click, 100),  // outside the range
            count(d + 30, "/promo", "desktop", .click, 100),  // outside the range
        ]
        let range = DayRange(from: d, to: d + 2)
        let json = ClickReport(counts, range: range).json()
        #expect(
            json
                == [
                    "from": "2026-11-01", "to": "2026-11-03", "clicks": 15, "opens": 2, "bots": 5, "unmatched": 6,
                    "byPlatform": ["ios": 7, "android": 3, "desktop": 7],
                    "byDay": [
                        ["day": "2026-11-01", "clicks": 12, "opens": 0, "bots": 0],
                        ["day": "2026-11-02", "clicks": 3, "opens": 2, "bots": 0],
                        ["day": "2026-11-03", "clicks": 0, "opens": 0, "bots": 5],
                    ],
                    "routes": [
                        ["name": "user", "pattern": "/users/:id", "clicks": 8, "opens": 2, "bots": 4],
                        ["name": nil, "pattern": "/promo", "clicks": 7, "opens": 0, "bots": 0],
                    ],
                ])
        let one = ClickReport(counts, range: range, pattern: "/promo").json()
        #expect(one["clicks"] == 7)
        #expect(one["bots"] == 0)
        #expect(one["unmatched"] == 0)
        #expect(one["routes"] == [["name": nil, "pattern": "/promo", "clicks": 7, "opens": 0, "bots": 0]])
        // §8: "With `route=`, every figure and the `routes` array cover that route only": by platform and by day too.
        #expect(one["byPlatform"] == ["ios": 0, "android": 0, "desktop": 7])
        #expect(
            one["byDay"] == [
                ["day": "2026-11-01", "clicks": 7, "opens": 0, "bots": 0],
                ["day": "2026-11-02", "clicks": 0, "opens": 0, "bots": 0],
                ["day": "2026-11-03", "clicks": 0, "opens": 0, "bots": 0],
            ])
        let user = ClickReport(counts, range: range, pattern: "/users/:id").json()
        #expect(user["byPlatform"] == ["ios": 7, "android": 3, "desktop": 0])
        #expect(user["bots"] == 4)
        #expect(
            user["byDay"] == [
                ["day": "2026-11-01", "clicks": 5, "opens": 0, "bots": 0],
                ["day": "2026-11-02", "clicks": 3, "opens": 2, "bots": 0],
                ["day": "2026-11-03", "clicks": 0, "opens": 0, "bots": 4],
            ])
    }

    /// Counters from a store edited by hand (huge, negative, and many of them: 366 days of three platforms) are summed
    /// without trapping: every figure stops at 2^53 (`ClickCount.maximum`), a negative counter counts 0.
    @Test func hugeOrNegativeStoredCountersDoNotOverflow() {
        let d = Self.nov1
        var counts = [count(d, "/u", "desktop", .click, -5), count(d, "", "desktop", .unmatched, .max)]
        for day in d..<(d + 366) {
            for platform in ["ios", "android", "desktop"] {
                counts.append(count(day, "/u", platform, .click, .max, name: "u"))
                counts.append(count(day, "/u", platform, .open, .max, name: "u"))
            }
        }
        let json = ClickReport(counts, range: DayRange(from: d, to: d + 365)).json()
        let maximum = JSONValue.int(ClickCount.maximum)
        #expect(json["clicks"] == maximum)
        #expect(json["opens"] == maximum)
        #expect(json["unmatched"] == maximum)
        #expect(json["byPlatform"]?["ios"] == maximum)
        #expect(json["byDay"]?.arrayValue?.first?["clicks"] == maximum)
        #expect(json["routes"]?.arrayValue?.first?["clicks"] == maximum)
        #expect(ClickReport([count(d, "/u", "ios", .click, -5)], range: DayRange(from: d, to: d)).json()["clicks"] == 0)
    }

    /// A row shows the route registered under its pattern now: renamed, named after its first clicks, or registered
    /// again with other parameter names, it is one row, and `route=` covers it whole; one unnamed now shows no name.
    /// A pattern no longer registered keeps the name of its last day's click.
    @Test func rowsNameTheRouteRegisteredNow() {
        let d = Self.nov1
        let counts = [
            count(d, "/camp", "desktop", .click, 1, name: "spring"),
            count(d, "/users/:id", "ios", .click, 2),
            count(d + 1, "/users/:uid", "ios", .click, 3, name: "user"),
            count(d + 1, "/gone", "ios", .click, 1, name: "renamed"),
            count(d, "/gone", "ios", .click, 1, name: "old"),
            count(d, "/plain", "ios", .click, 1, name: "was"),
        ]
        let registered: [String: ClickReport.CurrentRoute] = [
            "/camp": .init(pattern: "/camp", name: "autumn"),
            "/users/:id": .init(pattern: "/users/:uid", name: "member"),
            "/users/:uid": .init(pattern: "/users/:uid", name: "member"),
            "/plain": .init(pattern: "/plain", name: nil),
        ]
        let range = DayRange(from: d, to: d + 1)
        let report = ClickReport(counts, range: range) { registered[$0] }
        #expect(
            report.json()["routes"] == [
                ["name": "member", "pattern": "/users/:uid", "clicks": 5, "opens": 0, "bots": 0],
                ["name": "renamed", "pattern": "/gone", "clicks": 2, "opens": 0, "bots": 0],
                ["name": "autumn", "pattern": "/camp", "clicks": 1, "opens": 0, "bots": 0],
                ["name": nil, "pattern": "/plain", "clicks": 1, "opens": 0, "bots": 0],
            ])
        let member = ClickReport(counts, range: range, pattern: "/users/:uid") { registered[$0] }
        #expect(member.json()["clicks"] == 5)
        #expect(member.routes.map(\.name) == ["member"])
    }

    /// A pattern no longer registered is one row whatever its spellings (`/j/:id`, then `/j/:x`: one pattern, API.md
    /// §2), under the spelling and name of its last day's clicks; it was a row per spelling.
    @Test func aPatternNoLongerRegisteredIsOneRowWhateverItsSpellings() {
        let d = Self.nov1
        let counts = [
            count(d + 1, "/j/:x", "ios", .click, 1, name: "jb"),
            count(d, "/j/:id", "ios", .click, 2, name: "ja"),
        ]
        let report = ClickReport(counts, range: DayRange(from: d, to: d + 1)) { _ in
            nil
        } shape: {
            (try? Pattern($0))?.shape() ?? $0
        }
        #expect(report.json()["routes"] == [["name": "jb", "pattern": "/j/:x", "clicks": 3, "opens": 0, "bots": 0]])
    }

    @Test func routesWithEqualCountsAreOrderedByName() {
        let d = Self.nov1
        let counts = [
            count(d, "/b", "ios", .click, 1, name: "b"), count(d, "/a", "ios", .open, 1, name: "a"),
            count(d, "/z", "ios", .click, 1), count(d, "/c", "ios", .click, 2, name: "c"),
        ]
        let report = ClickReport(counts, range: DayRange(from: d, to: d))
        #expect(report.routes.map(\.pattern) == ["/c", "/a", "/b", "/z"])
    }

    @Test(
        arguments: [
            (nil, nil, "2026-10-25", "2026-11-23"),
            ("2026-11-01", nil, "2026-11-01", "2026-11-23"),
            ("2026-01-01", nil, "2026-01-01", "2026-01-30"),
            (nil, "2026-02-10", "2026-01-12", "2026-02-10"),
            ("2026-02-28", "2026-03-01", "2026-02-28", "2026-03-01"),
            ("2025-11-23", "2026-11-23", "2025-11-23", "2026-11-23"),
            // The 30 days ending on 0000-01-05 would start in year -1, which YYYY-MM-DD cannot write.
            (nil, "0000-01-05", "0000-01-01", "0000-01-05"),
            ("0000-01-01", "0000-01-01", "0000-01-01", "0000-01-01"),
        ] as [(String?, String?, String, String)])
    func ranges(from: String?, to: String?, expectedFrom: String, expectedTo: String) throws {
        let range = try DayRange(from: from, to: to, today: UTCCalendar.days(parsing: "2026-11-23")!)
        #expect(UTCCalendar.day(range.from) == expectedFrom)
        #expect(UTCCalendar.day(range.to) == expectedTo)
    }

    @Test(
        arguments: [
            ("2026-11-31", nil), ("2026-13-01", nil), ("2026-1-01", nil), ("yesterday", nil), ("2026-02-29", nil),
            ("2026-11-02", "2026-11-01"), ("2025-11-22", "2026-11-23"),
        ] as [(String?, String?)])
    func badRanges(from: String?, to: String?) {
        #expect { try DayRange(from: from, to: to, today: 20_000) } throws: {
            ($0 as? LinkError)?.code == .invalidRequest
        }
    }

    @Test func defaultRangeHasThirtyDays() throws {
        let report = ClickReport([], range: try DayRange(from: nil, to: nil, today: 20_000))
        #expect(report.byDay.count == 30)
        #expect(report.json()["routes"] == [])
    }

    @Test(arguments: [
        ("1970-01-01", Int64(0)), ("2000-03-01", 11_017), ("2026-11-23", 20_780), ("1969-12-31", -1),
    ])
    func dayNumbers(text: String, days: Int64) {
        #expect(UTCCalendar.days(parsing: text) == days)
        #expect(UTCCalendar.day(days) == text)
    }
}
