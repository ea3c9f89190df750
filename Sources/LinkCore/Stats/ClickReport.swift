import OrderedCollections

/// The answer of `GET /v1/stats/clicks` (API.md §8), summed from counters.
public struct ClickReport: Sendable, Equatable {
    public struct Figures: Sendable, Equatable {
        public var clicks = 0
        public var opens = 0
        public var bots = 0
    }

    public struct RouteFigures: Sendable, Equatable {
        public var pattern: String
        public var name: String?
        public var figures: Figures
    }

    public var range: DayRange
    public var totals = Figures()
    public var unmatched = 0
    /// People on matched routes (clicks and opens), by platform.
    public var byPlatform: OrderedDictionary<String, Int> = ["ios": 0, "android": 0, "desktop": 0]
    /// Every day of the range, in order.
    public var byDay: [Figures]
    /// Routes with at least one count, most clicks + opens first, then by name (unnamed last), then pattern.
    public var routes: [RouteFigures] = []

    /// The route registered now under a counted pattern (parameter names ignored, as for a conflict).
    public struct CurrentRoute: Sendable, Equatable {
        public var pattern: String
        public var name: String?

        public init(pattern: String, name: String?) {
            self.pattern = pattern
            self.name = name
        }
    }

    /// Sums `counts` over `range`; with `pattern` (a registered route's), only that route's counters.
    ///
    /// A counter is kept under the pattern and name clicked; `current` says which route is registered under that
    /// pattern now, if any, and `shape` what makes two spellings one pattern (parameter names aside, API.md §2).
    /// Counters of one route are then one row, under its current pattern and name (a route renamed, or registered
    /// again as `/users/:uid`, is still the route `route=` names); the counters of a pattern no longer registered
    /// are one row too, under the spelling and name of its last day's clicks.
    public init(
        _ counts: [ClickCount], range: DayRange, pattern: String? = nil,
        current: (String) -> CurrentRoute? = { _ in nil }, shape: (String) -> String = { $0 }
    ) {
        self.range = range
        byDay = Array(repeating: Figures(), count: Int(range.to - range.from + 1))
        var perRoute: [String: RouteFigures] = [:]
        /// Each counted spelling's route now, if any, and the key of its row.
        var rows: [String: (now: CurrentRoute?, key: String)] = [:]
        /// The day of the counter a row no longer registered took its spelling and name from.
        var namedOn: [String: Int64] = [:]
        // Every sum stops at ClickCount.maximum: counters of a store edited by hand cannot overflow it (a trap).
        let add = ClickCount.adding
        for count in counts where range.contains(count.key.day) {
            let key = count.key
            let n = count.count
            let row: (now: CurrentRoute?, key: String)
            if key.pattern.isEmpty {
                row = (nil, "")
            } else if let known = rows[key.pattern] {
                row = known
            } else {
                let now = current(key.pattern)
                // Registered rows by their pattern now, the others by their shape: two spaces of keys.
                row = (now, now.map { "r" + $0.pattern } ?? "s" + shape(key.pattern))
                rows[key.pattern] = row
            }
            let now = row.now
            if let pattern, (now?.pattern ?? key.pattern) != pattern { continue }
            let dayIndex = Int(key.day - range.from)
            switch key.kind {
            case .click, .open:
                if key.kind == .click {
                    totals.clicks = add(n, totals.clicks)
                    byDay[dayIndex].clicks = add(n, byDay[dayIndex].clicks)
                } else {
                    totals.opens = add(n, totals.opens)
                    byDay[dayIndex].opens = add(n, byDay[dayIndex].opens)
                }
                byPlatform[key.platform, default: 0] = add(n, byPlatform[key.platform, default: 0])
            case .bot:
                totals.bots = add(n, totals.bots)
                byDay[dayIndex].bots = add(n, byDay[dayIndex].bots)
            case .unmatched:
                unmatched = add(n, unmatched)
            }
            guard !key.pattern.isEmpty, key.kind != .unmatched else { continue }
            var route =
                perRoute[row.key] ?? RouteFigures(pattern: now?.pattern ?? key.pattern, name: nil, figures: Figures())
            if let now {
                // The route's name now, none included: a name it had once would be one `route=` cannot find.
                route.name = now.name
            } else if key.day >= (namedOn[row.key] ?? .min) {
                // No longer registered: the spelling and name of its last day's clicks.
                route.pattern = key.pattern
                if let name = count.name { route.name = name }
                namedOn[row.key] = key.day
            }
            switch key.kind {
            case .click: route.figures.clicks = add(n, route.figures.clicks)
            case .open: route.figures.opens = add(n, route.figures.opens)
            case .bot: route.figures.bots = add(n, route.figures.bots)
            case .unmatched: break
            }
            perRoute[row.key] = route
        }
        routes = perRoute.values.sorted { a, b in
            // Each at most ClickCount.maximum (2^53): their sum cannot overflow.
            let (x, y) = (a.figures.clicks + a.figures.opens, b.figures.clicks + b.figures.opens)
            if x != y { return x > y }
            switch (a.name, b.name) {
            case (let p?, let q?) where p != q: return p < q
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.pattern < b.pattern
            }
        }
    }

    /// The JSON answer.
    public func json() -> JSONValue {
        func figures(_ f: Figures) -> JSONObject {
            ["clicks": .int(f.clicks), "opens": .int(f.opens), "bots": .int(f.bots)]
        }
        var object: JSONObject = [
            "from": .string(UTCCalendar.day(range.from)), "to": .string(UTCCalendar.day(range.to)),
        ]
        object.merge(figures(totals)) { _, new in new }
        object["unmatched"] = .int(unmatched)
        object["byPlatform"] = .object(JSONObject(uniqueKeysWithValues: byPlatform.map { ($0.key, .int($0.value)) }))
        object["byDay"] = .array(
            byDay.enumerated().map { offset, f in
                var day: JSONObject = ["day": .string(UTCCalendar.day(range.from + Int64(offset)))]
                day.merge(figures(f)) { _, new in new }
                return .object(day)
            })
        object["routes"] = .array(
            routes.map { route in
                var item: JSONObject = [
                    "name": route.name.map(JSONValue.string) ?? .null, "pattern": .string(route.pattern),
                ]
                item.merge(figures(route.figures)) { _, new in new }
                return .object(item)
            })
        return .object(object)
    }
}
