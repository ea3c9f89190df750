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

    /// Sums `counts` over `range`; with `pattern`, only that route's counters.
    public init(_ counts: [ClickCount], range: DayRange, pattern: String? = nil) {
        self.range = range
        byDay = Array(repeating: Figures(), count: Int(range.to - range.from + 1))
        var perRoute: [String: RouteFigures] = [:]
        // Every sum stops at ClickCount.maximum: counters of a store edited by hand cannot overflow it (a trap).
        let add = ClickCount.adding
        for count in counts where range.contains(count.key.day) {
            let key = count.key
            let n = count.count
            if let pattern, key.pattern != pattern { continue }
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
                perRoute[key.pattern] ?? RouteFigures(pattern: key.pattern, name: count.name, figures: Figures())
            if route.name == nil { route.name = count.name }
            switch key.kind {
            case .click: route.figures.clicks = add(n, route.figures.clicks)
            case .open: route.figures.opens = add(n, route.figures.opens)
            case .bot: route.figures.bots = add(n, route.figures.bots)
            case .unmatched: break
            }
            perRoute[key.pattern] = route
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
