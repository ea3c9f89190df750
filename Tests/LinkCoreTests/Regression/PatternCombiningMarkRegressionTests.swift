import LinkCore
import Testing

/// A `:` or `*` followed by a combining mark (issue 7 part 4, docs/reliability.md).
///
/// Found by PatternFuzzer: the canonical text of a literal that starts with an escaped `*` or `:` dropped the first
/// *character* after the marker, and a combining mark forms one character with it, so the mark was lost. The
/// pattern then read back as another pattern, shared its shape (a false `route_conflict` with that other pattern)
/// and, since resources are stored by canonical text, came back from a restart at another path. The parser had the
/// same habit: `:` + U+0301 + `id` was taken as the parameter `id` instead of an invalid name.
@Suite struct PatternCombiningMarkRegressionTests {
    /// The fuzzer's input, `/%2A` and bytes that decode to U+0597 (a combining accent) and replacement characters.
    static let fuzzerInput = String(
        decoding: [0x2F, 0x25, 0x32, 0x41, 0xD6, 0x97, 0xF5, 0xF5, 0xD0, 0xD0, 0xD0, 0xD5] as [UInt8], as: UTF8.self)

    @Test(arguments: [fuzzerInput, "/%2A\u{0301}x", "/a/%3A\u{0301}id", "/%2a\u{20DD}"])
    func canonicalTextKeepsTheMark(text: String) throws {
        let pattern = try Pattern(text)
        let reparsed = try Pattern(pattern.description)
        #expect(reparsed == pattern)
        #expect(
            pattern.description.unicodeScalars.contains {
                $0.properties.generalCategory == .nonspacingMark
                    || $0.properties.generalCategory == .enclosingMark
            })
    }

    @Test func aMarkMakesAnotherShape() throws {
        #expect(try Pattern("/%2A\u{0301}x").shape() != Pattern("/%2Ax").shape())
        var table = RouteTable()
        table = try table.registering(RouteDefinition(path: "/%2Ax"), source: .api).table
        #expect(throws: Never.self) { _ = try table.registering(RouteDefinition(path: "/%2A\u{0301}x"), source: .api) }
    }

    @Test(arguments: ["/:\u{0301}id", "/*\u{0301}rest", "/a/:\u{20DD}"])
    func aMarkAfterTheMarkerIsNotAName(text: String) {
        #expect(throws: LinkError.self) { try Pattern(text) }
    }
}
