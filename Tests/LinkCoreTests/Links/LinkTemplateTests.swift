import Testing

@testable import LinkCore

@Suite struct LinkTemplateTests {
    static let pattern = try! Pattern("/users/:id/files/*rest")

    static func render(_ template: String, _ location: String) throws -> String {
        let parsed = try LinkTemplate(url: template, field: "link.desktop", schemes: ["https", "http", "myapp"])
            .validated(against: pattern, field: "link.desktop")
        let location = try Location(location)
        let params = pattern.parameters(in: location.segments)
        return parsed.render(params: params, location: location)
    }

    @Test(arguments: [
        (
            "https://www.example.com{location}", "/users/42/files/a/b?tab=x",
            "https://www.example.com/users/42/files/a/b?tab=x"
        ),
        ("https://x.com/u/{id}", "/users/a%20b/files/c", "https://x.com/u/a%20b"),
        ("https://x.com/u/{id}", "/users/a%2Fb/files/c", "https://x.com/u/a%2Fb"),
        ("https://x.com/f/{rest}", "/users/1/files/a/b%20c", "https://x.com/f/a/b%20c"),
        (
            "https://x.com/?next={location}", "/users/1/files/a?x=1&y=2",
            "https://x.com/?next=%2Fusers%2F1%2Ffiles%2Fa%3Fx%3D1%26y%3D2"
        ),
        (
            "https://x.com/?p={path}&id={id}", "/users/a&b/files/z",
            "https://x.com/?p=%2Fusers%2Fa%26b%2Ffiles%2Fz&id=a%26b"
        ),
        ("https://x.com/w{path}?{query}", "/users/1/files/a?x=1&y=2", "https://x.com/w/users/1/files/a?x=1&y=2"),
        ("https://x.com/w?q={query}", "/users/1/files/a?x=1&y=2", "https://x.com/w?q=x%3D1%26y%3D2"),
        ("https://x.com/w#{id}", "/users/%C3%A9/files/a", "https://x.com/w#%C3%A9"),
        ("myapp://users/{id}", "/users/7/files/a", "myapp://users/7"),
        // An app's URL may leave its host empty (RFC 3986 §3.2); a web URL may not (below).
        ("myapp:///users/{id}", "/users/7/files/a", "myapp:///users/7"),
        ("myapp://{location}", "/users/7/files/a?x=1", "myapp:///users/7/files/a?x=1"),
        // Every character a URL may hold as it is, and escapes of either case, are kept as written.
        (
            "https://u:p@x.com:8443/a-._~!$&'()*+,;=:@%2f%C3%A9/{id}?q=/?[]#f/?", "/users/1/files/a",
            "https://u:p@x.com:8443/a-._~!$&'()*+,;=:@%2f%C3%A9/1?q=/?[]#f/?"
        ),
        ("https://xn--bcher-kva.example/{id}", "/users/1/files/a", "https://xn--bcher-kva.example/1"),
        ("https://[::1]:8443/{id}", "/users/1/files/a", "https://[::1]:8443/1"),
        ("http://192.0.2.1:/{id}", "/users/1/files/a", "http://192.0.2.1:/1"),
    ])
    func fillsEachPlaceholderForWhereItStands(template: String, location: String, expected: String) throws {
        #expect(try Self.render(template, location) == expected)
    }

    @Test(arguments: [
        ("/relative/{id}", "not an absolute URL"),
        ("https://{id}.example.com/", "a placeholder may not stand in the host"),
        ("https:///users/{id}", "the URL has no host"),
        ("http://{location}", "the URL has no host"),
        ("https://example{id}.com/", "a placeholder may not stand in the host"),
        // A person is sent there: the authority is checked as a clicked link's (§2).
        ("https://x.example.com:abc/{id}", "malformed host or port"),
        ("https://example.com:99999/{id}", "malformed host or port"),
        ("https://example.com:65536", "malformed host or port"),
        ("https://[::1/{id}", "malformed host or port"),
        ("https://[::1]x/{id}", "malformed host or port"),
        ("https://user@/{id}", "malformed host or port"),
        ("https://exa[mple.com/{id}", "malformed host or port"),
        ("ftp://example.com/", "the scheme must be one of http, https, myapp"),
        ("https://example.com/{nope}", "/users/:id/files/*rest has no parameter 'nope'"),
        ("https://example.com/{id", "'{' without '}'"),
        // `{location}` holds the query: what follows it in the path would land there.
        (
            "https://example.com{location}?src=app",
            "{location} in the path ends it (it holds the query): write {path}, then ?{query}"
        ),
        (
            "https://example.com{location}/edit",
            "{location} in the path ends it (it holds the query): write {path}, then ?{query}"
        ),
        ("https://example.com/}", "'}' without '{'"),
        ("https://example.com/{id}\r\nRefresh: 0; url=https://evil.example/", "a URL may not hold a control character"),
        ("https://example.com/a\u{0}b", "a URL may not hold a control character"),
        ("https://example.com/a\u{7F}", "a URL may not hold a control character"),
        // What stands around the placeholders goes into `Location` as it is: it must already be a URL's text.
        ("https://example.com/%zz/{id}", "a malformed percent-escape: '%zz'"),
        ("https://example.com/a%2/{id}", "a malformed percent-escape: '%2/'"),
        ("https://example.com/a%", "a malformed percent-escape: '%'"),
        ("https://example.com/a b/{id}", "' ' must be percent-encoded: %20"),
        ("https://example.com/\u{E9}/{id}", "'\u{E9}' must be percent-encoded: %C3%A9"),
        ("https://example.com/?q=a|b", "'|' must be percent-encoded: %7C"),
        ("https://example.com/#a\"b", "'\"' must be percent-encoded: %22"),
        ("https://example.com/a<b>", "'<' must be percent-encoded: %3C"),
        ("https://example.com/a\\b", "'\\' must be percent-encoded: %5C"),
        ("https://example.com/{id}^`", "'^' must be percent-encoded: %5E"),
        (
            "https://b\u{FC}cher.example/{id}",
            "a host is written in ASCII: '\u{FC}' (an internationalised name in its xn-- form)"
        ),
        ("https://exa%zzmple.com/", "a host is written without percent-escapes: '%zz'"),
        ("https://apps%2Eapple.com/app/id1", "a host is written without percent-escapes: '%2E'"),
        // An app's authority is a path segment, user info is not a host: both percent-encoded.
        ("myapp://caf\u{E9}/{id}", "'\u{E9}' must be percent-encoded: %C3%A9"),
        ("https://us\u{E9}r@example.com/{id}", "'\u{E9}' must be percent-encoded: %C3%A9"),
    ])
    func refusesTemplatesThatLetAParameterChooseTheHost(template: String, reason: String) {
        #expect {
            try LinkTemplate(url: template, field: "link.ios", schemes: ["https", "http", "myapp"])
                .validated(against: Self.pattern, field: "link.ios")
        } throws: { error in
            guard let error = error as? LinkError else { return false }
            return error.code == .invalidRequest && error.details["field"] == "link.ios"
                && error.details["reason"] == .string(reason)
        }
    }

    @Test func textTemplatesFillRawValues() throws {
        let template = try LinkTemplate(text: "{id} & <friends> at {location}", field: "t")
            .validated(against: Self.pattern, field: "t")
        let location = try Location("/users/J%C3%BCrgen%20K/files/x")
        #expect(
            template.render(params: Self.pattern.parameters(in: location.segments), location: location)
                == "Jürgen K & <friends> at /users/J%C3%BCrgen%20K/files/x")
    }
}
