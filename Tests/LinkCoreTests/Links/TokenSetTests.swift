import Testing

@testable import LinkCore

@Suite struct TokenSetTests {
    static let set = TokenSet([
        (Array("Slackbot".utf8), false), (Array("bot".utf8), true), (Array("x".utf8), false),
        (Array("Go-".utf8), false),
    ])

    static func firstMatch(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { set.firstMatch(in: $0) }
    }

    static func containsAny(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { set.containsAny(in: $0) }
    }

    static let table: [(text: String, first: Int?)] = [
        ("", nil),
        ("Slackbot-LinkExpanding 1.0", 0),
        ("FooBOT/1.0", 1),
        ("foobot", 1),
        ("BoT", 1),
        ("bo", nil),
        ("Slackbo", nil),
        ("x", 2),
        ("ax", 2),
        ("abc x def", 2),
        ("Go-http-client/1.1", 3),
        ("Go", nil),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1", nil),
    ]

    @Test(arguments: table)
    func smallestIndexFound(_ text: String, _ first: Int?) {
        #expect(TokenSetTests.firstMatch(text) == first)
        #expect(TokenSetTests.containsAny(text) == (first != nil))
    }
}
