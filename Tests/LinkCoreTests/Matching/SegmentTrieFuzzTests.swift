import LinkCore
import LinkTestSupport
import Testing

/// Property tests with a seeded generator: random patterns and locations never crash the parser or the
/// matcher, and the trie's winner is the one a brute-force reference picks.
@Suite struct SegmentTrieFuzzTests {

    static let pieces = [
        "a", "b", "A", "B", "é", "清", ":", "*", "/", "//", "%", "%2F", "%41", "%zz", "%C3%A9", "?", "#", "x", "_",
        "1", ":p", ":q", "*r", "\u{0}", " ", "+", "&", "=", "%E6%B8%85",
    ]

    private func randomText(_ generator: inout SplitMix64, maxPieces: Int) -> String {
        let count = Int.random(in: 0...maxPieces, using: &generator)
        return (0..<count).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
    }

    @Test func randomTextNeverCrashesTheParsers() {
        var generator = SplitMix64(seed: 20_251_121)
        for _ in 0..<5_000 {
            let text = randomText(&generator, maxPieces: 12)
            do { _ = try Pattern("/" + text) } catch { #expect(error.code == .invalidPattern) }
            do { _ = try Pattern("/a").appending(text) } catch { #expect(error.code == .invalidPattern) }
            do {
                let location = try Location(text)
                let reparsed = try Location(location.description)
                #expect(reparsed.segments == location.segments, "\(text)")
                #expect(reparsed.query == location.query, "\(text)")
            } catch {
                #expect(error.code == .invalidURL)
            }
        }
    }

    /// Per segment: 0 exact literal, 1 case-insensitive literal, 2 parameter, 3 catch-all; `nil` if no match.
    private func rank(_ entry: SegmentTrie<Int>.Entry, _ segments: [String]) -> [Int]? {
        var ranks: [Int] = []
        for (index, segment) in entry.pattern.segments.enumerated() {
            switch segment {
            case .catchAll: return index < segments.count ? ranks + [3] : nil
            case .parameter:
                guard index < segments.count else { return nil }
                ranks.append(2)
            case .literal(let text):
                guard index < segments.count else { return nil }
                if entry.caseInsensitive {
                    guard text.lowercased().utf8.elementsEqual(segments[index].lowercased().utf8) else { return nil }
                    ranks.append(1)
                } else {
                    guard text.utf8.elementsEqual(segments[index].utf8) else { return nil }
                    ranks.append(0)
                }
            }
        }
        return ranks.count == segments.count ? ranks : nil
    }

    private func reference(_ entries: [SegmentTrie<Int>.Entry], _ segments: [String]) -> Int? {
        var best: (index: Int, ranks: [Int])?
        for (index, entry) in entries.enumerated() {
            guard let ranks = rank(entry, segments) else { continue }
            if best == nil || ranks.lexicographicallyPrecedes(best!.ranks) { best = (index, ranks) }
        }
        return best?.index
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func trieAgreesWithBruteForce(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let words = ["a", "b", "A", "ab", "é", "É"]
        var entries: [SegmentTrie<Int>.Entry] = []
        var keys = Set<String>()
        for _ in 0..<60 {
            let depth = Int.random(in: 0...4, using: &generator)
            var text = ""
            for position in 0..<depth {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<6: text += "/" + words.randomElement(using: &generator)!
                case 6..<9: text += "/:p\(position)"
                default: text += "/*rest"
                }
                if text.hasSuffix("*rest") { break }
            }
            guard let pattern = try? Pattern(text.isEmpty ? "/" : text) else { continue }
            let caseInsensitive = Bool.random(using: &generator)
            // Same slot in the trie: skip, as a route table would refuse it.
            guard keys.insert(pattern.shape(caseInsensitive: caseInsensitive) + (caseInsensitive ? "|i" : "")).inserted
            else { continue }
            entries.append(.init(pattern, entries.count, caseInsensitive: caseInsensitive))
        }
        let trie = SegmentTrie(entries)
        for _ in 0..<2_000 {
            let segments = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                words.randomElement(using: &generator)!
            }
            let found = trie.firstIndex(matching: segments)
            let expected = reference(entries, segments)
            #expect(
                found == expected,
                "\(segments): trie \(found.map { "\(entries[$0].pattern)" } ?? "nil"), reference \(expected.map { "\(entries[$0].pattern)" } ?? "nil")"
            )
        }
    }
}
