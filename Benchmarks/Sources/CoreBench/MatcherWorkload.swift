import LinkCore
import LinkTestSupport

/// A route set and the lookups run against it: decoded segments, the input of both matchers.
struct MatcherWorkload {
    var name: String
    var patterns: [String]
    var lookups: [[String]]

    /// The GitHub API set: one concrete location per pattern (`hits`), or the same locations made to miss
    /// (`misses`: half get an extra trailing segment, so the walk goes deep before failing, half an unknown
    /// first segment; the few that a parameter or catch-all still matches are left out).
    static func gitHub(hits: Bool) -> MatcherWorkload {
        let patterns = GitHubRoutes.patterns
        var lookups = patterns.map(sampleSegments)
        if !hits {
            let trie = SegmentTrie(patterns.enumerated().map { SegmentTrie.Entry(try! Pattern($1), $0) })
            lookups = lookups.enumerated().map { index, segments in
                index % 2 == 0 ? segments + ["missing"] : ["nope"] + segments.dropFirst()
            }
            lookups.removeAll { trie.firstIndex(matching: $0) != nil }
        }
        return MatcherWorkload(name: hits ? "GitHub hits" : "GitHub misses", patterns: patterns, lookups: lookups)
    }

    /// `count` synthetic routes shaped like a large API (four levels of literals from a few hundred distinct
    /// names, then a parameter, a literal, a catch-all or nothing), with 2,000 lookups: half hits on random
    /// routes, half misses.
    static func synthetic(count: Int) -> MatcherWorkload {
        var generator = SplitMix64(seed: 42)
        let patterns = (0..<count).map(SyntheticRoutes.pattern)
        var lookups: [[String]] = []
        for index in 0..<2_000 {
            let pattern = patterns[Int(generator.next() % UInt64(count))]
            let segments = sampleSegments(for: pattern)
            switch index % 4 {
            case 0, 1: lookups.append(segments)
            case 2: lookups.append(segments + ["missing", "more"])
            default: lookups.append(Array(segments.prefix(2)) + ["unknown"] + segments.dropFirst(3))
            }
        }
        let label = count >= 1000 ? "\(count / 1000)k" : "\(count)"
        return MatcherWorkload(name: "\(label) routes, 50% hits", patterns: patterns, lookups: lookups)
    }

    /// A concrete location for a pattern: parameters become values derived from their names, a catch-all three
    /// segments.
    static func sampleSegments(for pattern: String) -> [String] {
        pattern.split(separator: "/").flatMap { segment -> [String] in
            switch segment.first {
            case ":": return ["v-" + segment.dropFirst()]
            case "*": return ["a", "b", "c"]
            default: return [String(segment)]
            }
        }
    }
}
