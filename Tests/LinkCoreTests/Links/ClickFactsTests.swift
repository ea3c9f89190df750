import LinkCore
import Testing

/// `ClickFacts.linkAsClicked`, written out from the host and target of a click only when read, and the language a
/// click carries to the rules.
@Suite struct ClickFactsTests {
    @Test func aClickedTargetIsALinkOnItsHost() throws {
        var facts = ClickFacts(
            location: try Location("/users/42?tab=a"), clickedTarget: "/users/42?tab=a", host: "links.example.com:8443",
            platform: .ios, bot: nil)
        #expect(facts.linkAsClicked == "https://links.example.com:8443/users/42?tab=a")
        #expect(facts.via == "click")
        let copy = facts
        // Changing the host later does not move the link that was clicked.
        facts.host = "other.example.com"
        #expect(facts.linkAsClicked == "https://links.example.com:8443/users/42?tab=a")
        #expect(facts.host == "other.example.com")
        facts.linkAsClicked = "https://given.example.com/x"
        #expect(facts.linkAsClicked == "https://given.example.com/x")
        #expect(copy.linkAsClicked == "https://links.example.com:8443/users/42?tab=a")
        #expect(copy.host == "links.example.com:8443")
    }

    @Test func aGivenLinkIsKept() throws {
        let facts = ClickFacts(
            location: try Location("/users/42"), linkAsClicked: "https://app.example.com/users/42", host: "ignored",
            platform: .android, bot: nil, via: "app")
        #expect(facts.linkAsClicked == "https://app.example.com/users/42")
        #expect(facts.via == "app")
    }

    /// `click.language` (API.md §7 step 3): the first tag of `Accept-Language`, or null; a header is whatever a client
    /// sent, so no text of it may stop the process (`;` alone once did).
    @Test(
        arguments: [
            ("de-CH,de;q=0.9", "de-CH"), ("fr", "fr"), ("  en-US ;q=0.8, fr", "en-US"), ("\ten\t", "en"),
            (", ,pt-BR", "pt-BR"), ("*", nil), ("*;q=0.5, en", nil), (";", nil), (";;", nil), ("; ,en", nil),
            (";q=1", nil), (",", nil), (" ", nil), ("", nil), (nil, nil),
        ] as [(String?, String?)])
    func theLanguageIsTheFirstTagOrNone(header: String?, language: String?) {
        #expect(ClickFacts.language(header) == language)
    }
}
