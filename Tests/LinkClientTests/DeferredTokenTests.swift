import LinkClient
import Testing

/// Finding a deferred-link token in a pasteboard string or an install referrer.
@Suite struct DeferredTokenTests {
    @Test(
        arguments: [
            ("https://links.example.com/users/42?lst=abc_-1", ["links.example.com"], "abc_-1"),
            ("  https://links.example.com/users/42?x=1&lst=tok\n", [], "tok"),
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
}
