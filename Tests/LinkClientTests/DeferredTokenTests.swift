import LinkClient
import Testing

/// Finding a deferred-link token in a pasteboard string or an install referrer.
@Suite struct DeferredTokenTests {
    @Test(
        arguments: [
            ("https://links.example.com/users/42?lst=abc_-1", ["links.example.com"], "abc_-1"),
            ("  https://links.example.com/users/42?x=1&lst=tok\n", ["links.example.com"], "tok"),
            // With no hosts no link is claimed: a pasteboard can hold a stranger's link and its token.
            ("https://links.example.com/users/42?lst=tok", [], nil),
            ("https://go.example.org/a?lst=t", ["*.example.org"], "t"),
            ("https://evil.example.net/a?lst=t", ["links.example.com"], nil),
            ("https://links.example.com/users/42", ["links.example.com"], nil),
            (
                "utm_source=mail&linkserver_token=3q2-x&linkserver_link=https%3A%2F%2Flinks.example.com%2Fusers%2F42",
                [], "3q2-x"
            ),
            ("linkserver_link=https%3A%2F%2Fa", [], nil),
            ("", [], nil),
        ] as [(String, [String], String?)])
    func findsTheToken(text: String, hosts: [String], token: String?) {
        #expect(DeferredToken.find(in: text, hosts: hosts) == token)
    }

    /// The link itself, without its token, from what the iOS landing page copied: for a claim that gave nothing.
    @Test(
        arguments: [
            ("https://links.example.com/users/42?lst=abc", ["links.example.com"], "https://links.example.com/users/42"),
            (
                " https://links.example.com/p/7?ref=mail&lst=t&x=1\n", ["links.example.com"],
                "https://links.example.com/p/7?ref=mail&x=1"
            ),
            ("https://LINKS.example.com/users/42", ["links.example.com"], "https://LINKS.example.com/users/42"),
            ("https://go.example.org/a?lst=t", ["*.example.org"], "https://go.example.org/a"),
            (
                "https://links.example.com/s?q=a%2Fb%26c&lst=t", ["links.example.com"],
                "https://links.example.com/s?q=a%2Fb%26c"
            ),
            ("https://evil.example.net/a?lst=t", ["links.example.com"], nil),
            ("https://links.example.com/users/42?lst=t", [], nil),
            ("myapp://users/42", ["links.example.com"], nil),
            ("just some text", ["links.example.com"], nil),
        ] as [(String, [String], String?)])
    func findsTheLinkInAPasteboard(text: String, hosts: [String], link: String?) {
        #expect(DeferredToken.link(inPasteboard: text, hosts: hosts) == link)
    }
}
