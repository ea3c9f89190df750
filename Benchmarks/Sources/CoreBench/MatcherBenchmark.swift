import LinkCore
import RoutingKit

/// Our `SegmentTrie` against routing-kit's `TrieRouter` on the same decoded segments, in the same run.
enum MatcherBenchmark {
    static func run() {
        var gitHubCost = 0.0
        var smallCost = 0.0
        // The synthetic lookups at 150 routes (about the GitHub set's size) tell what the table's size costs from
        // what the lookups' shapes cost: they are longer than the GitHub set's, and half of them backtrack.
        for workload in [
            MatcherWorkload.gitHub(hits: true), .gitHub(hits: false), .synthetic(count: 150),
            .synthetic(count: 10_000), .synthetic(count: 100_000),
        ] {
            let ours = measureTrie(workload)
            let theirs = measureRoutingKit(workload)
            if workload.name == "GitHub hits" || workload.name == "GitHub misses" { gitHubCost += ours.ns / 2 }
            if workload.name.hasPrefix("150 ") { smallCost = ours.ns }
            Row(
                group: "matcher", name: workload.name, value: ours.ns, baselineName: "routing-kit",
                baselineValue: theirs.ns,
                note: "found \(ours.found)/\(workload.lookups.count) vs \(theirs.found); "
                    + "ours without parameters (firstIndex) \(Int(ours.indexNs)) ns; "
                    + "routing-kit reusing Parameters \(Int(theirs.reusedNs)) ns"
            ).print()
            if workload.name.hasPrefix("100k") {
                Row(
                    group: "matcher", name: "100k vs GitHub set", value: ours.ns / gitHubCost, unit: "x",
                    note: "cost at 100k routes over the mean GitHub hit/miss cost"
                ).print()
                Row(
                    group: "matcher", name: "100k vs 150 routes", value: ours.ns / smallCost, unit: "x",
                    note: "cost at 100k routes over the cost of the same lookups' shapes at 150 routes"
                ).print()
            }
        }
    }

    /// ns per `SegmentTrie.match` (parameters extracted, as the resolver does), and per `firstIndex` (the walk
    /// alone).
    static func measureTrie(_ workload: MatcherWorkload) -> (ns: Double, indexNs: Double, found: Int) {
        let entries = workload.patterns.enumerated().map { index, text in
            SegmentTrie<Int>.Entry(try! Pattern(text), index)
        }
        let trie = SegmentTrie(entries)
        let lookups = workload.lookups
        let found = lookups.reduce(0) { $0 + (trie.match($1) == nil ? 0 : 1) }
        let ns = Measure.nanosecondsPerOperation(operations: lookups.count) {
            var checksum = 0
            for segments in lookups {
                if let match = trie.match(segments) { checksum &+= match.value &+ match.parameters.count }
            }
            return checksum
        }
        let indexNs = Measure.nanosecondsPerOperation(operations: lookups.count) {
            var checksum = 0
            for segments in lookups { checksum &+= trie.firstIndex(matching: segments) ?? 1 }
            return checksum
        }
        return (ns, indexNs, found)
    }

    /// ns per `TrieRouter.route` with a new `Parameters()` each time (routing-kit's documented use), and with
    /// one `Parameters` reused, which leaves out its per-lookup logger set-up.
    static func measureRoutingKit(_ workload: MatcherWorkload) -> (ns: Double, reusedNs: Double, found: Int) {
        let router = TrieRouter(Int.self)
        for (index, pattern) in workload.patterns.enumerated() {
            router.register(index, at: pathComponents(pattern))
        }
        let lookups = workload.lookups
        var probe = Parameters()
        let found = lookups.reduce(0) { $0 + (router.route(path: $1, parameters: &probe) == nil ? 0 : 1) }
        let ns = Measure.nanosecondsPerOperation(operations: lookups.count) {
            var checksum = 0
            for segments in lookups {
                var parameters = Parameters()
                if let value = router.route(path: segments, parameters: &parameters) { checksum &+= value }
            }
            return checksum
        }
        var reused = Parameters()
        let reusedNs = Measure.nanosecondsPerOperation(operations: lookups.count) {
            var checksum = 0
            for segments in lookups {
                if let value = router.route(path: segments, parameters: &reused) { checksum &+= value }
            }
            return checksum
        }
        return (ns, reusedNs, found)
    }

    /// Our pattern syntax in routing-kit's terms: `:name` → parameter, `*rest` → catch-all (`**`).
    static func pathComponents(_ pattern: String) -> [PathComponent] {
        pattern.split(separator: "/").map { segment in
            switch segment.first {
            case ":": return .parameter(String(segment.dropFirst()))
            case "*": return .catchall
            default: return .constant(String(segment))
            }
        }
    }
}
