import LinkTestSupport
import Testing

@testable import LinkCore

@Suite struct LocationTests {
    @Test(arguments: [
        ("/users/42", ["users", "42"], "/users/42"),
        ("/users/42?tab=posts", ["users", "42"], "/users/42"),
        ("users/42", ["users", "42"], "/users/42"),
        ("/", [], "/"),
        ("//users//42/", ["users", "42"], "/users/42"),
        ("/users/42/", ["users", "42"], "/users/42"),
        ("/users/42#top", ["users", "42"], "/users/42"),
        ("/a?b#c?d", ["a"], "/a"),
        ("?x=1", [], "/"),
        ("#frag", [], "/"),
        ("/a%2Fb/c", ["a/b", "c"], "/a%2Fb/c"),
        (
            "/city/school/清华大学/class/123", ["city", "school", "清华大学", "class", "123"],
            "/city/school/%E6%B8%85%E5%8D%8E%E5%A4%A7%E5%AD%A6/class/123"
        ),
        (
            "/city/school/%E6%B8%85%E5%8D%8E%E5%A4%A7%E5%AD%A6/class/123",
            ["city", "school", "清华大学", "class", "123"],
            "/city/school/%E6%B8%85%E5%8D%8E%E5%A4%A7%E5%AD%A6/class/123"
        ),
        ("/a%20b/+/%2B", ["a b", "+", "+"], "/a%20b/+/+"),
        ("/%7Euser/a~b", ["~user", "a~b"], "/~user/a~b"),
        ("/./..", [".", ".."], "/./.."),
        (
            "/url/https%3A%2F%2Fexample.com%2Fx%3Fy%3D1", ["url", "https://example.com/x?y=1"],
            "/url/https:%2F%2Fexample.com%2Fx%3Fy=1"
        ),
    ])
    func canonicalisesBarePaths(text: String, segments: [String], path: String) throws {
        let location = try Location(text)
        #expect(location.segments == segments)
        #expect(location.path == path)
        #expect(location.scheme == nil && location.host == nil)
        // The canonical text reads back to the same location.
        #expect(try Location(location.description) == location)
    }

    @Test(arguments: [
        ("https://example.com/users/42?tab=posts", "https", "example.com", ["users", "42"]),
        ("http://Example.COM:8080/users/42", "http", "example.com", ["users", "42"]),
        ("HTTPS://user:pw@example.com/a", "https", "example.com", ["a"]),
        ("https://[::1]:8443/a", "https", "[::1]", ["a"]),
        ("https://example.com", "https", "example.com", []),
        ("https://example.com?x=1", "https", "example.com", []),
        ("https://example.com#x", "https", "example.com", []),
    ])
    func keepsTheHostOfWebURLsAside(text: String, scheme: String, host: String, segments: [String]) throws {
        let location = try Location(text)
        #expect(location.scheme == scheme)
        #expect(location.host == host)
        #expect(location.segments == segments)
    }

    @Test(arguments: [
        ("myapp://users/42", ["users", "42"]),
        ("myapp://users/42?tab=posts#x", ["users", "42"]),
        ("MyApp://Users/42", ["Users", "42"]),
        ("myapp://users", ["users"]),
        ("myapp://", []),
        ("myapp:users/42", ["users", "42"]),
        ("myapp:/users/42", ["users", "42"]),
        ("my.app+x-y://city/%E6%B8%85%E5%8D%8E", ["city", "清华"]),
        ("myapp://a%2Fb/c", ["a/b", "c"]),
    ])
    func customSchemesKeepTheHostAsFirstSegment(text: String, segments: [String]) throws {
        let location = try Location(text)
        #expect(location.segments == segments)
        #expect(location.host == nil)
        #expect(location.scheme != nil)
    }

    @Test func parsesTheQuery() throws {
        let location = try Location("/users/42?tab=posts&x")
        #expect(location.query.items == [QueryItem("tab", "posts"), QueryItem("x", "")])
        #expect(location.description == "/users/42?tab=posts&x")
    }

    @Test(arguments: [
        ("", "the location is empty"),
        ("/a/%", "malformed percent-escape"),
        ("/a/%2", "malformed percent-escape"),
        ("/a/%G0", "malformed percent-escape"),
        ("/a/%C3%28", "do not decode to UTF-8"),
        ("/a/%FF", "do not decode to UTF-8"),
        ("/a/%00", "control character"),
        ("/a/%0A", "control character"),
        ("/a/%7F", "control character"),
        ("/a/%C2%85", "control character"),
        ("/a\n", "control characters are not allowed"),
        ("/a\u{7F}", "control characters are not allowed"),
        ("/a?x=\t", "control characters are not allowed"),
        ("/a#\u{0}", "control characters are not allowed"),
        ("/a?x=%", "malformed percent-escape"),
        ("/a?%FF=1", "escapes do not decode to UTF-8"),
        ("myapp://%zz/x", "malformed percent-escape"),
        ("/users/1 ", "leading or trailing spaces"),
        (" /users/1", "leading or trailing spaces"),
        ("https://x.com/a?q=1 ", "leading or trailing spaces"),
        // An authority that is not host[:port] (RFC 3986 §3.2): it was read as some host, or none.
        ("http://[::1/users/1", "malformed host or port"),
        ("http://a:b/users/1", "malformed host or port"),
        ("http://a b/users/1", "malformed host or port"),
        ("http://a:99999/users/1", "malformed host or port"),
        ("https://a:65536/", "malformed host or port"),
        ("http://a[b]/x", "malformed host or port"),
        ("http://[::1]x/users/1", "malformed host or port"),
        // User info a browser reads as part of the path or as nothing: it goes to another host than the one after `@`.
        ("https://evil.com\\@links.example.com/users/1", "malformed host or port"),
        ("https://ev il.com@links.example.com/users/1", "malformed host or port"),
        ("https://a[b@links.example.com/users/1", "malformed host or port"),
        ("https://a^b@links.example.com/", "malformed host or port"),
        ("https://a\"b@links.example.com/", "malformed host or port"),
        // No authority: a browser takes what follows for the host.
        ("https:evil.example/users/1", "an http(s) URL needs '//' and a host"),
        ("https:/evil.example/users/1", "an http(s) URL needs '//' and a host"),
        ("HTTP:\\\\evil.example/users/1", "an http(s) URL needs '//' and a host"),
        ("http:", "an http(s) URL needs '//' and a host"),
    ])
    func rejectsInvalidLocations(text: String, reason: String) {
        let error = #expect(throws: LinkError.self) { try Location(text) }
        #expect(error?.code == .invalidURL)
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
    }

    @Test(
        arguments: [
            ("https://x.com/#/users/42?tab=1", ["users", "42"], "tab=1", "x.com"),
            ("https://x.com/app?ignored=1#/users/42", ["users", "42"], "", "x.com"),
            ("https://x.com/#!/users/42", ["users", "42"], "", "x.com"),
            ("https://x.com/#users", ["users"], "", "x.com"),
            ("https://x.com/users/7#", ["users", "7"], "", "x.com"),
            ("/#/a/b", ["a", "b"], "", nil),
            ("myapp://#/a", ["a"], "", nil),
        ] as [(String, [String], String, String?)])
    func hashModeTakesTheFragmentAsTheLocation(text: String, segments: [String], query: String, host: String?) throws {
        let location = try Location(text, fragmentAsPath: true)
        #expect(location.segments == segments)
        #expect(location.query.items.map { $0.name + "=" + $0.value }.joined(separator: "&") == query)
        #expect(location.host == host)
        // Off by default: the fragment is ignored, as API.md §2 says.
        #expect(try Location(text).segments != segments || !text.contains("#/"))
    }

    @Test func hashModeRejectsABadFragment() {
        #expect(throws: LinkError.self) { try Location("https://x.com/#/a%zz", fragmentAsPath: true) }
    }

    @Test func innerAndEscapedSpacesStay() throws {
        #expect(try Location("/a b/c%20").segments == ["a b", "c "])
    }

    @Test func decodedControlsAreAllowedInQueryValues() throws {
        #expect(try Location("/a?text=line1%0Aline2").query.map["text"] == "line1\nline2")
    }

    @Test func buildsFromSegments() {
        let location = Location(segments: ["a/b", "", "清华"], query: Query([QueryItem("q", "a&b")]))
        #expect(location.segments == ["a/b", "清华"])
        #expect(location.description == "/a%2Fb/%E6%B8%85%E5%8D%8E?q=a%26b")
        #expect(location.path(prefix: 1) == "/a%2Fb")
        #expect(location.path(prefix: 0) == "/")
    }

    /// The answer writer encodes the location once (`encodedText()`) and cuts the path and the chain's locations
    /// from it (`pathPrefixEnd`): all agree with encoding the segments again.
    @Test func prefixesCutFromTheEncodedTextAgreeWithEncoding() {
        var generator = SplitMix64(seed: 0x10CA_7104)
        let pieces = ["a", "/", "%", "é", "清", " ", "?", "#", "x/y", "%2F", "~", "-", "Z9"]
        for _ in 0..<2_000 {
            let segments = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                (0..<Int.random(in: 1...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                    .joined()
            }
            let query = Bool.random(using: &generator) ? Query() : Query([QueryItem("q", "a&b /")])
            let location = Location(segments: segments, query: query)
            let (text, pathEnd) = location.encodedText()
            #expect(String(decoding: text, as: UTF8.self) == location.description)
            let path = text[..<pathEnd]
            #expect(String(decoding: path, as: UTF8.self) == location.path)
            for count in 0...location.segments.count {
                let end = Location.pathPrefixEnd(in: path, segments: count)
                #expect(String(decoding: path[..<end], as: UTF8.self) == location.path(prefix: count))
            }
        }
    }

    /// Authorities of every legal shape keep their host (for `links.hosts`), without user info and port.
    @Test(arguments: [
        ("http://a:65535/x", "a"), ("http://[::1]:8081/x", "[::1]"),
        ("http://user:pa%40ss@Host.Example/x", "host.example"),
        ("https://a@b:c;d=e~f!g$h&i'j(k)l*m+n,o.p_q-r@links.example.com/x", "links.example.com"),
        ("https://us\u{E9}r@links.example.com/x", "links.example.com"),
        ("http://a:/x", "a"), ("https://b\u{FC}cher.example/x", "b\u{FC}cher.example"),
        ("http://[fe80::1%25eth0]/x", "[fe80::1%25eth0]"),
        ("https://127.0.0.1:443/x", "127.0.0.1"),
        ("https://a:000443/x", "a"),
    ])
    func keepsTheHostOfEveryLegalAuthority(text: String, host: String) throws {
        let location = try Location(text)
        #expect(location.host == host)
        #expect(location.segments == ["x"])
    }
}
