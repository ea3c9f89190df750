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
                var pattern: String?
                if let name = values["route"] {
                    guard let route = routes.resolver.table.route(named: name) else {
                        throw LinkError(.unknownName, "No route is named '\(name)'", details: ["name": .string(name)])
                    }
                    pattern = route.pattern.description
                }
                let report = ClickReport(try ledger.counts(in: range), range: range, pattern: pattern)
                return .now(.json(report.json()))
            }.usingStore()
        ]
    }
}
