import LinkCore
import LinkTestSupport
import Testing

@Suite struct SegmentTrieTests {
    /// A trie whose values are the pattern texts.
    private func trie(_ patterns: [String], caseInsensitive: Set<String> = []) throws -> SegmentTrie<String> {
        SegmentTrie(
            try patterns.map { .init(try Pattern($0), $0, caseInsensitive: caseInsensitive.contains($0)) })
    }

    private func winner(_ trie: SegmentTrie<String>, _ location: String) throws -> String? {
        trie.match(try Location(location).segments)?.value
    }

    static let precedenceSets: [[String]] = [
        ["/users/me", "/users/:id", "/users/*rest"],
        ["/users/*rest", "/users/:id", "/users/me"],
        ["/users/:id", "/users/*rest", "/users/me"],
    ]

    @Test(arguments: precedenceSets)
    func literalBeatsParameterBeatsCatchAllWhateverTheOrder(patterns: [String]) throws {
        let trie = try trie(patterns)
        #expect(try winner(trie, "/users/me") == "/users/me")
        #expect(try winner(trie, "/users/42") == "/users/:id")
        #expect(try winner(trie, "/users/42/x") == "/users/*rest")
        #expect(try winner(trie, "/users") == nil)
    }

    @Test func backtracksWhenALiteralBranchDeadEnds() throws {
        let trie = try trie(["/a/b/c", "/a/:x/d", "/:y/b/e"])
        #expect(try winner(trie, "/a/b/c") == "/a/b/c")
        #expect(try winner(trie, "/a/b/d") == "/a/:x/d")
        // Both branches under the literal `a` dead-end: back to the root's parameter.
        #expect(try winner(trie, "/a/b/e") == "/:y/b/e")
        #expect(trie.match(try Location("/a/b/e").segments)?.parameters.dictionary == ["y": "a"])
        #expect(try winner(trie, "/z/b/c") == nil)
    }

    @Test func aCatchAllUnderTheLiteralWinsBeforeBacktrackingFurther() throws {
        let trie = try trie(["/a/b/c", "/a/:x/d", "/:y/b/e", "/a/*rest"])
        #expect(try winner(trie, "/a/b/e") == "/a/*rest")
        #expect(try winner(trie, "/a/b/d") == "/a/:x/d")
        #expect(try winner(trie, "/q/b/e") == "/:y/b/e")
    }

    @Test func catchAllTakesOneOrMoreSegments() throws {
        let trie = try trie(["/files/*path", "/"])
        #expect(try winner(trie, "/files") == nil)
        #expect(try winner(trie, "/") == "/")
        let match = trie.match(try Location("/files/docs/a%2Fb/c%20d").segments)
        #expect(match?.parameters.dictionary == ["path": "docs/a/b/c d"])
    }

    @Test func rootCatchAllMatchesEverythingButTheRoot() throws {
        let trie = try trie(["/*all"])
        #expect(try winner(trie, "/") == nil)
        #expect(try winner(trie, "/x/y/z") == "/*all")
    }

    @Test func matchesUnicodeRawAndEncoded() throws {
        let trie = try trie(["/city/school/清华大学/class/:id", "/city/school/:name/class/:id"])
        for text in [
            "/city/school/清华大学/class/123", "/city/school/%E6%B8%85%E5%8D%8E%E5%A4%A7%E5%AD%A6/class/123",
        ] {
            let match = trie.match(try Location(text).segments)
            #expect(match?.value == "/city/school/清华大学/class/:id")
            #expect(match?.parameters.dictionary == ["id": "123"])
        }
        let other = trie.match(try Location("/city/school/北大/class/7").segments)
        #expect(other?.parameters.dictionary == ["name": "北大", "id": "7"])
    }

    @Test func comparesLiteralsByteForByte() throws {
        // "é" precomposed (U+00E9) and decomposed (e + U+0301) are canonically equivalent, but different URLs.
        let trie = try trie(["/caf%C3%A9"])
        #expect(try winner(trie, "/caf%C3%A9") == "/caf%C3%A9")
        #expect(try winner(trie, "/cafe%CC%81") == nil)
    }

    @Test func anEncodedSlashStaysInsideItsSegment() throws {
        let trie = try trie(["/a%2Fb", "/a/b", "/:x"])
        #expect(try winner(trie, "/a%2Fb") == "/a%2Fb")
        #expect(try winner(trie, "/a/b") == "/a/b")
        #expect(try winner(trie, "/a%2fc") == "/:x")
        #expect(trie.match(try Location("/a%2fc").segments)?.parameters["x"] == "a/c")
    }

    @Test func caseInsensitiveEntriesFoldTheirLiteralsOnly() throws {
        let trie = try trie(["/Users/:id", "/about"], caseInsensitive: ["/Users/:id"])
        let match = trie.match(try Location("/USERS/AbC").segments)
        #expect(match?.value == "/Users/:id")
        #expect(match?.parameters["id"] == "AbC")
        #expect(try winner(trie, "/users/x") == "/Users/:id")
        #expect(try winner(trie, "/About") == nil)
        #expect(try winner(trie, "/about") == "/about")
    }

    @Test func caseSensitiveLiteralsComeBeforeCaseInsensitiveOnes() throws {
        let trie = try trie(["/users/x", "/USERS/:id"], caseInsensitive: ["/USERS/:id"])
        #expect(try winner(trie, "/users/x") == "/users/x")
        #expect(try winner(trie, "/Users/x") == "/USERS/:id")
        #expect(try winner(trie, "/users/y") == "/USERS/:id")
    }

    @Test func foldsNonASCIILiterals() throws {
        let trie = try trie(["/ÉCOLE/:id"], caseInsensitive: ["/ÉCOLE/:id"])
        #expect(try winner(trie, "/école/1") == "/ÉCOLE/:id")
        #expect(try winner(trie, "/%C3%89cole/1") == "/ÉCOLE/:id")
    }

    @Test func theFirstOfTwoEntriesWithTheSameShapeWins() throws {
        let trie = SegmentTrie([.init(try Pattern("/u/:id"), 1), .init(try Pattern("/u/:x"), 2)])
        let match = trie.match(["u", "7"])
        #expect(match?.value == 1)
        #expect(match?.index == 0)
        #expect(match?.parameters.dictionary == ["id": "7"])
    }

    @Test func anEmptyTrieMatchesNothing() {
        let trie = SegmentTrie<Int>()
        #expect(trie.match([]) == nil)
        #expect(trie.firstIndex(matching: ["a"]) == nil)
        #expect(trie.count == 0)
    }

    @Test func longAndEmptyLookingSegments() throws {
        let long = String(repeating: "abcdefgh", count: 20)
        let trie = try trie(["/\(long)/x", "/\(long)y/:p"])
        #expect(try winner(trie, "/\(long)/x") == "/\(long)/x")
        #expect(try winner(trie, "/\(long)y/1") == "/\(long)y/:p")
        #expect(try winner(trie, "/\(long.dropLast())/x") == nil)
    }

    /// A literal table keeps a key's first 16 bytes in its slot and longer keys apart: keys of every length around
    /// those bounds, sharing their prefixes, are found by their own text and by no text that differs in one byte
    /// (at any position), is one byte shorter or one byte longer.
    @Test func literalsOfEveryLengthCompareEveryByte() throws {
        let keys = (1...40).map { length in String((0..<length).map { Character(UnicodeScalar(97 + $0 % 26)!) }) }
        let trie = SegmentTrie(
            try keys.enumerated().flatMap { index, key in
                [SegmentTrie.Entry(try Pattern("/\(key)"), index), .init(try Pattern("/p/\(key)/end"), index + 100)]
            })
        func value(_ segments: [String]) -> Int? { trie.match(segments)?.value }
        for (index, key) in keys.enumerated() {
            #expect(value([key]) == index)
            #expect(value(["p", key, "end"]) == index + 100)
            #expect(value([key + "!"]) == nil)
            #expect(value([String(key.dropLast())]) == (index > 0 ? index - 1 : nil))
            var bytes = Array(key.utf8)
            for position in bytes.indices {
                bytes[position] ^= 0x20
                #expect(value([String(decoding: bytes, as: UTF8.self)]) == nil, "\(key) @\(position)")
                #expect(value(["p", String(decoding: bytes, as: UTF8.self), "end"]) == nil, "\(key) @\(position)")
                bytes[position] ^= 0x20
            }
        }
        #expect(value([""]) == nil)
        #expect(value(["p", "", "end"]) == nil)
    }

    @Test func matchesEveryGitHubRouteByItsOwnSample() throws {
        let trie = try trie(GitHubRoutes.patterns)
        for pattern in GitHubRoutes.patterns {
            #expect(try winner(trie, GitHubRoutes.sampleLocation(for: pattern)) == pattern)
        }
        #expect(try winner(trie, "/repos/apple/swift/pulls/1/nope") == nil)
        #expect(try winner(trie, "/user/following/octocat") == "/user/following/:user")
        #expect(try winner(trie, "/users/octocat/following/x") == "/users/:user/following/:target_user")
        let contents = trie.match(try Location("/repos/apple/swift/contents/docs/README.md").segments)
        #expect(contents?.parameters.dictionary == ["owner": "apple", "repo": "swift", "path": "docs/README.md"])
    }

    @Test func aLargeTableFindsEveryEntry() throws {
        let patterns = (0..<10_000).map { "/r\($0 % 97)/s\($0)/:id" }
        let trie = SegmentTrie(try patterns.enumerated().map { .init(try Pattern($0.element), $0.offset) })
        for index in stride(from: 0, to: 10_000, by: 7) {
            #expect(trie.firstIndex(matching: ["r\(index % 97)", "s\(index)", "x"]) == index)
        }
        #expect(trie.firstIndex(matching: ["r1", "s2", "x"]) == nil)
    }
}
