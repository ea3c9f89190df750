import LinkCore

/// `CoreBench profile NAME COUNT`: runs one operation COUNT times with no timing, for
/// `valgrind --tool=callgrind` (instruction counts are stable on a busy machine; see docs/benchmarks.md).
enum Profile {
    static let names = [
        "match-github", "match-100k", "location", "resolve", "resolve-redirect", "resolution-json", "resolution-writer",
        "guard",
    ]

    static func run(_ name: String, count: Int) -> Bool {
        var checksum = 0
        switch name {
        case "match-github":
            let workload = MatcherWorkload.gitHub(hits: true)
            let trie = SegmentTrie(workload.patterns.enumerated().map { SegmentTrie.Entry(try! Pattern($1), $0) })
            for index in 0..<count {
                checksum &+= trie.match(workload.lookups[index % workload.lookups.count])?.value ?? 0
            }
        case "match-100k":
            // The synthetic 100k-route set's lookups (half hits), for callgrind's cache simulation: the table is
            // megabytes, so the cost is in cache misses rather than instructions.
            let workload = MatcherWorkload.synthetic(count: 100_000)
            let trie = SegmentTrie(workload.patterns.enumerated().map { SegmentTrie.Entry(try! Pattern($1), $0) })
            for index in 0..<count {
                checksum &+= trie.match(workload.lookups[index % workload.lookups.count])?.value ?? 0
            }
        case "location":
            for _ in 0..<count {
                checksum &+= (try? Location("/repos/apple/swift/issues/42?tab=comments"))?.segments.count ?? 0
            }
        case "resolve", "resolve-redirect":
            let resolver = Resolver(table: ResolveBenchmark.table())
            let context: JSONValue = ["loggedIn": false]
            for _ in 0..<count {
                let resolution =
                    name == "resolve"
                    ? try? resolver.resolve(location: "/repos/apple/swift/issues/42?tab=comments")
                    : try? resolver.resolve(location: "/account/settings", context: context)
                checksum &+= resolution?.routeIndex ?? 0
            }
        case "resolution-json":
            let resolution = try! Resolver(table: ResolveBenchmark.table()).resolve(
                location: "/repos/apple/swift/issues/42?tab=comments")
            for _ in 0..<count { checksum &+= resolution.json().encoded().count }
        case "resolution-writer":
            let resolution = try! Resolver(table: ResolveBenchmark.table()).resolve(
                location: "/repos/apple/swift/issues/42?tab=comments")
            for _ in 0..<count {
                var writer = JSONWriter()
                resolution.write(to: &writer)
                checksum &+= writer.bytes.count
            }
        case "guard":
            let rule = try! Rule(JSONParser.parse(RuleBenchmark.guardRule))
            let data = try! JSONParser.parse(RuleBenchmark.data)
            for _ in 0..<count { checksum &+= (try? rule.evaluate(data))?.isTruthy == true ? 1 : 0 }
        default:
            return false
        }
        Measure.sink &+= checksum
        return true
    }
}
