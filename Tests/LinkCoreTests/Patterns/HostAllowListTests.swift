import LinkCore
import Testing

@Suite struct HostAllowListTests {
    private let hosts = HostAllowList(["example.com", "Links.Example.ORG.", "*.app.test"])

    @Test(arguments: [
        ("example.com", true), ("EXAMPLE.com", true), ("example.com.", true), ("links.example.org", true),
        ("www.example.com", false), ("a.app.test", true), ("a.b.app.test", true), ("app.test", false),
        ("evil.com", false), ("", false),
    ])
    func allowsListedHosts(host: String, allowed: Bool) {
        #expect(hosts.allows(host) == allowed)
    }

    @Test(arguments: [
        ("/users/42", true), ("myapp://users/42", true), ("https://example.com/users", true),
        ("https://evil.com/users", false), ("http://example.com:8080/", true), ("https:///users", false),
    ])
    func checksOnlyWebURLs(text: String, allowed: Bool) throws {
        #expect(hosts.allows(try Location(text)) == allowed)
    }
}
