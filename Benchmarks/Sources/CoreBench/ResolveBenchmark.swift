import LinkCore
import LinkTestSupport

/// `Resolver` on the GitHub route set plus a guarded route, with and without a redirect, and the two steps
/// around it in the HTTP path: parsing the location and encoding the response body.
enum ResolveBenchmark {
    static let guarded = """
        {"path": "/account/settings", "name": "settings", "destination": {"screen": "Settings"},
         "redirect": [{"when": {"!": {"var": "context.loggedIn"}}, "to": "/login?from={location}"}]}
        """
    static let login = #"{"path": "/login", "name": "login", "destination": {"screen": "Login"}}"#

    static func table() -> RouteTable {
        var definitions = GitHubRoutes.patterns.enumerated().map { index, pattern in
            try! RouteDefinition(
                json: [
                    "path": .string(pattern), "name": .string("gh\(index)"),
                    "destination": ["screen": .string("S\(index)")],
                ])
        }
        definitions.append(try! RouteDefinition(json: JSONParser.parse(guarded)))
        definitions.append(try! RouteDefinition(json: JSONParser.parse(login)))
        var table = RouteTable()
        table = try! table.replacingRoutes(from: .config, with: definitions).table
        return table
    }

    static func run() {
        let resolver = Resolver(table: table())
        let plain = "/repos/apple/swift/issues/42?tab=comments"
        let loggedIn: JSONValue = ["loggedIn": true]
        let loggedOut: JSONValue = ["loggedIn": false]

        let parse = Measure.nanosecondsPerOperation(operations: 1) { (try? Location(plain))?.segments.count ?? 0 }
        Row(group: "resolve", name: "Location(text), 5 segments + query", value: parse).print()

        let noRules = Measure.nanosecondsPerOperation(operations: 1) {
            (try? resolver.resolve(location: plain))?.routeIndex ?? 0
        }
        Row(group: "resolve", name: "resolve, route without rules", value: noRules).print()

        let passes = Measure.nanosecondsPerOperation(operations: 1) {
            (try? resolver.resolve(location: "/account/settings", context: loggedIn))?.routeIndex ?? 0
        }
        Row(group: "resolve", name: "resolve, guard evaluated, no redirect", value: passes).print()

        let redirected = Measure.nanosecondsPerOperation(operations: 1) {
            (try? resolver.resolve(location: "/account/settings", context: loggedOut))?.redirects.count ?? 0
        }
        Row(
            group: "resolve", name: "resolve, one redirect", value: redirected,
            baselineName: "guard, no redirect", baselineValue: passes
        ).print()

        let resolution = try! resolver.resolve(location: plain)
        let tree = Measure.nanosecondsPerOperation(operations: 1) { resolution.json().encoded().count }
        let written = Measure.nanosecondsPerOperation(operations: 1) {
            var writer = JSONWriter()
            resolution.write(to: &writer)
            return writer.bytes.count
        }
        Row(
            group: "resolve", name: "Resolution written by JSONWriter", value: written,
            baselineName: "json().encoded()", baselineValue: tree
        ).print()
    }
}
