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

/// IPv6 entries, written with or without brackets, admit the address as a `Host` header gives it (`::1`, brackets
/// stripped with the port) and as a URL gives it (`[::1]`).
@Suite struct HostAllowListAddressTests {
    @Test(arguments: ["::1", "[::1]", "[::1"])
    func anIPv6EntryAdmitsItsAddress(entry: String) throws {
        let hosts = HostAllowList([entry])
        let valid = HostAllowList.isValidEntry(entry)
        #expect(valid == (entry != "[::1"))
        guard valid else { return }
        #expect(hosts.allows("::1"))
        #expect(hosts.allows("[::1]"))
        #expect(hosts.allows(try Location("http://[::1]:8081/x")))
        #expect(!hosts.allows("::2"))
    }

    @Test(arguments: [
        ("links.example.com", true), ("*.example.com", true), ("127.0.0.1", true), ("fe80::1", true),
        ("cafe.be:8081", false), ("links.example.com:8081", false), ("*", false), ("", false),
        ("https://links.example.com", false), ("a.*.example.com", false),
        // IPv6 as RFC 4291 §2.2 writes it: one `::` at most, eight groups of up to four hex digits, an IPv4 tail.
        ("::", true), ("[2001:db8::8a2e:370:7334]", true), ("1:2:3:4:5:6:7:8", true), ("::ffff:1.2.3.4", true),
        ("1::2::3", false), (":::1", false), ("::1::", false), ("::1:", false), ("12345::1", false),
        ("1:2:3:4:5:6:7:8:9", false), ("1:2:3:4:5:6:7", false), ("1:2:3:4:5:6:7::8", false), ("::1.2.3", false),
        ("::256.1.1.1", false), ("::1.2.3.4:5", false),
    ])
    func entries(entry: String, valid: Bool) {
        #expect(HostAllowList.isValidEntry(entry) == valid)
    }
}
