import Testing

@testable import LinkServer

/// The links listener compares a path with its reserved paths only when it may be one: every reserved path must
/// pass the quick check, or it would be served as a click.
@Suite struct LinksDispatcherPathTests {
    @Test(arguments: [
        "/.well-known/apple-app-site-association", "/apple-app-site-association", "/.well-known/assetlinks.json",
        "/.well-known/other", "/robots.txt", "/favicon.ico", "/v1/deferred/claim", "/v1/links/opens",
    ])
    func reservedPathsPassTheQuickCheck(_ path: String) {
        #expect(LinksDispatcher.mayBeReserved(path))
    }

    @Test(arguments: ["", "/", "/users/42", "/products/shoes", "/Robots.txt", "/%2Ewell-known/x"])
    func otherPathsSkipTheComparisons(_ path: String) {
        #expect(!LinksDispatcher.mayBeReserved(path))
    }

    /// A path is compared with the reserved paths as it is when canonical, else as its location reads (§2): every
    /// spelling of a reserved path is that path; a `/` decoded from `%2F` stays in its segment.
    @Test(
        arguments: [
            ("/robots.txt", "/robots.txt"), ("/robots.txt/", "/robots.txt"),
            ("//.well-known//assetlinks.json", "/.well-known/assetlinks.json"),
            ("/v1/deferred/claim/", "/v1/deferred/claim"), ("/v1//links/opens", "/v1/links/opens"),
            ("/v1/links/%6Fpens", "/v1/links/opens"), ("/%2Ewell-known/x", "/.well-known/x"),
            ("/users/42", nil), ("/users/42/", nil), ("/p/caf%C3%A9", nil), ("//users//1", nil), ("/", nil),
            ("", nil), ("/.well-known%2Fassetlinks.json", nil), ("/v1/%zz", nil), ("/Robots.txt/", nil),
            ("/robots.txt%00", nil), ("/robots%FF.txt/", nil), ("/v1/links/opens%00", nil),
        ] as [(String, String?)])
    func reservedPathsAreComparedAsTheirLocationReads(_ path: String, _ spelled: String?) {
        #expect(LinksDispatcher.reservedSpelling(of: path) == spelled)
    }

    /// API.md §7 step 7: `Accept` lists `application/json` and not `text/html`, each media type compared whole and
    /// without case, one weighted `q=0` not listed (RFC 9110 §12.5.1).
    @Test(
        arguments: [
            (nil, false), ("", false), ("application/json", true), ("Application/JSON ; charset=utf-8", true),
            ("*/*, application/json", true), ("text/html, application/json", false),
            ("application/json, text/html;q=0.9", false), ("text/html;q=0, application/json", true),
            ("application/json;q=0", false), ("application/json; Q=0.000", false), ("application/json;q=0.5", true),
            ("application/json;q=1", true), ("application/jsonx", false), ("xapplication/json", false),
            ("text/htmlx, application/json", true), ("application/json,;", true), ("application/json;", true),
            (",,,", false),
        ] as [(String?, Bool)])
    func jsonIsWantedWhenAcceptListsItAndNotHTML(_ accept: String?, _ wanted: Bool) {
        #expect(LinksDispatcher.wantsJSON(accept) == wanted)
    }

    /// An app open's link loses the reserved query items as a click's target does (API.md §7 step 1), and nothing
    /// else: other items in their order, a fragment, items that only start like them.
    @Test(arguments: [
        ("https://l.example.com/users/9", "https://l.example.com/users/9"),
        ("https://l.example.com/users/9?lst=abc", "https://l.example.com/users/9"),
        ("https://l.example.com/users/9?lst=abc&tab=a&_lsp=ios", "https://l.example.com/users/9?tab=a"),
        ("https://l.example.com/u?a=1&_lsp&b=2#top", "https://l.example.com/u?a=1&b=2#top"),
        ("https://l.example.com/u?lstx=1&_lsps=2", "https://l.example.com/u?lstx=1&_lsps=2"),
        ("https://l.example.com/u#a?lst=1", "https://l.example.com/u#a?lst=1"),
        // Reserved by the decoded name: a percent-encoded spelling is the same item.
        ("https://l.example.com/u?%5Flsp=ios&l%73t=x&k=%41", "https://l.example.com/u?k=%41"),
        ("https://l.example.com/u?%5flsp&LST=1", "https://l.example.com/u?LST=1"),
        ("https://l.example.com/u?a%zz=1&lst=2", "https://l.example.com/u?a%zz=1"),
    ])
    func anOpenedLinkLosesTheReservedItems(url: String, kept: String) {
        #expect(LinksDispatcher.withoutReservedItems(url) == kept)
    }

    /// `_lsp`'s value is read decoded, under either spelling of its name.
    @Test(
        arguments: [("_lsp=ios", "ios"), ("%5Flsp=ios", "ios"), ("_lsp=%69os", "ios"), ("x=1", nil)]
            as [(String, String?)])
    func theChosenPlatformIsReadDecoded(query: String, lsp: String?) {
        #expect(LinksDispatcher.strippingReserved(Substring(query)).lsp == lsp)
        #expect(LinksDispatcher.strippingReserved(Substring(query)).query == (lsp == nil ? query : ""))
    }
}
