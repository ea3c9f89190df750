import LinkCore
import Testing

/// `ClickFacts.linkAsClicked`, written out from the host and target of a click only when read.
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
}
