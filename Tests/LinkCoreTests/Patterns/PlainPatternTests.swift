import LinkTestSupport
import Testing

@testable import LinkCore

/// `Pattern(_:)` parses plain patterns (unreserved ASCII literals, `:name`, a last `*name`) in one pass and
/// everything else with the general parser: the two must never disagree.
@Suite struct PlainPatternTests {
    /// What the general parser makes of `text`: the pattern, or the error.
    private func general(_ text: String) -> Result<Pattern, LinkError> {
        Result { () throws(LinkError) in try Pattern(parsingAnyPattern: text) }
    }

    private func public_(_ text: String) -> Result<Pattern, LinkError> {
        Result { () throws(LinkError) in try Pattern(text) }
    }

    /// Both parsers give the same segments, text, names and catch-all flag, or the same error.
    private func expectAgreement(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        switch (public_(text), general(text)) {
        case (.success(let fast), .success(let slow)):
            #expect(fast.segments == slow.segments, "\(text)", sourceLocation: sourceLocation)
            #expect(fast.description == slow.description, "\(text)", sourceLocation: sourceLocation)
            #expect(fast.parameterNames == slow.parameterNames, "\(text)", sourceLocation: sourceLocation)
            #expect(fast.endsWithCatchAll == slow.endsWithCatchAll, "\(text)", sourceLocation: sourceLocation)
            #expect(fast.shape() == slow.shape(), "\(text)", sourceLocation: sourceLocation)
        case (.failure(let fast), .failure(let slow)):
            #expect(fast == slow, "\(text)", sourceLocation: sourceLocation)
        case (let fast, let slow):
            Issue.record("\(text): \(fast) but the general parser gives \(slow)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [
        "/", "/users", "/users/:id", "/files/*path", "/v1/service0/resource0/:id/details", "/a-b/c.d/e_f/g~h",
        "/:_x/:A9/*rest", "/./..",
    ])
    func plainPatternsTakeTheFastPathAndKeepTheirText(text: String) throws {
        let plain = try #require(Pattern.plain(text))
        #expect(plain.description == text)
        expectAgreement(text)
    }

    @Test(arguments: [
        // Left to the general parser: escapes, other characters, empty segments, errors.
        "", "users", "//users", "/users/", "/a%2Fb", "/a b", "/city/清华", "/x:y", "/a*b", "/:", "/*", "/:1x",
        "/:id/:id", "/*path/more", "/a?b", "/a#b", "/%3Aliteral", "/:id-x", "/a\u{7F}",
    ])
    func otherPatternsTakeTheGeneralParser(text: String) {
        #expect(Pattern.plain(text) == nil)
        expectAgreement(text)
    }

    @Test func tooManySegmentsAreTheGeneralParsersError() {
        let text = String(repeating: "/a", count: Pattern.maximumSegments + 1)
        #expect(Pattern.plain(text) == nil)
        #expect(Pattern.plain(String(repeating: "/a", count: Pattern.maximumSegments)) != nil)
        expectAgreement(text)
    }

    /// Random texts over an alphabet that reaches every branch of both parsers agree.
    @Test func randomPatternsAgree() {
        let alphabet = Array("//////::**aZ_9-.~%2F?# é")
        var random = SplitMix64(seed: 0x5EED_0F_9A77)
        var plainSeen = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...14, using: &random)
            let text = "/" + String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
            if Pattern.plain(text) != nil { plainSeen += 1 }
            expectAgreement(text)
        }
        // The generator must exercise the fast path too, not only the fallback.
        #expect(plainSeen > 1_000)
    }
}
