import LinkCore

/// `GET /v1/stats/clicks` (API.md §8).
struct StatsEndpoints: Sendable {
    let ledger: ClickLedger
    let routes: LiveRoutes

    var endpoints: [Endpoint] {
        [
            Endpoint("GET", "/v1/stats/clicks", .read) { request, _ in
                var values: [String: String] = [:]
                for (key, value) in try request.queryItems() where ["route", "from", "to"].contains(key) {
                    values[key] = value
                }
                let range = try DayRange(
                    from: values["from"], to: values["to"],
                    today: UTCCalendar.day(ofMilliseconds: WallClock.milliseconds()))
                let table = routes.resolver.table
                var pattern: String?
                if let name = values["route"] {
                    guard let route = table.route(named: name) else {
                        throw LinkError(.unknownName, "No route is named '\(name)'", details: ["name": .string(name)])
                    }
                    pattern = route.pattern.description
                }
                let report = ClickReport(
                    try ledger.counts(in: range), range: range, pattern: pattern,
                    current: { counted in
                        // A pattern the store kept that no longer parses (an earlier version's) is no route's now.
                        guard let parsed = try? Pattern(counted), let index = table.index(of: parsed) else {
                            return nil
                        }
                        let route = table.routes[index]
                        return .init(pattern: route.pattern.description, name: route.name)
                    }, shape: { counted in (try? Pattern(counted))?.shape() ?? counted })
                return .now(.json(report.json()))
            }.usingStore()
        ]
    }
}
