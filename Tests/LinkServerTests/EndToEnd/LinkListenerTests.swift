import Foundation
import GRDB
import LinkCore
import Testing

@testable import LinkServer

/// The public listener (API.md §7–§9) over real HTTP on its own port.
@Suite struct LinkListenerTests {
    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
    static let android =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"
    static let instagram = android + " Instagram 300.0.0.0"
    static let macSafari =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15"
    static let windows =
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"
    static let slack = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
    static let google = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

    static func configure(_ config: inout Config, landing: Bool = false, extra: (inout Config) -> Void = { _ in }) {
        config.linkHosts = ["links.example.com", "*.example.org"]
        config.links.webURL = try! LinksSettings.urlTemplate("https://www.example.com{location}", field: "links.webURL")
        config.links.siteName = "Example"
        config.links.ios = try! LinksSettings.iosApp(
            appIDs: ["ABCDE12345.com.example.app"], scheme: "myapp", storeURL: "https://apps.apple.com/app/id123456789",
            landingPage: landing, webcredentials: nil)
        config.links.android = try! LinksSettings.androidApp(
            package: "com.example.app", scheme: "myapp",
            fingerprints: ["146de983c5730650d8eeb9952f34fc6416a08342e61dbea88a0496b23fcf44e5"],
            storeURL: "https://play.google.com/store/apps/details?id=com.example.app&referrer=utm_source%3Dmail")
        extra(&config)
    }

    static let userRoute: JSONValue = [
        "path": "/users/:id", "name": "user",
        "link": [
            "desktop": "https://www.example.com/u/{id}", "preview": ["title": "{id} on Example <b>"],
        ],
        "routes": [["path": "posts/:postId", "name": "userPost"]],
    ]

    func links(_ server: TestServer) -> HTTPClient { HTTPClient(port: server.application.linksPort) }

    func get(
        _ client: HTTPClient, _ target: String, agent: String, accept: String? = nil, host: String = "links.example.com"
    )
        throws -> HTTPClient.Reply
    {
        var headers = ["Host": host, "User-Agent": agent]
        if let accept { headers["Accept"] = accept }
        return try client.get(target, headers: headers)
    }

    @Test func redirectsEachPlatformAndCountsTheClick() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let client = links(server)
            let desktop = try get(client, "/users/42?tab=a", agent: Self.windows)
            #expect(desktop.status == 302)
            #expect(desktop.header("location") == "https://www.example.com/u/42")
            #expect(desktop.header("cache-control") == "no-store")
            #expect(desktop.header("x-robots-tag") == "noindex")
            let ios = try get(client, "/users/42", agent: Self.iPhone)
            #expect(ios.header("location") == "https://apps.apple.com/app/id123456789")
            // A nested route without its own link falls back to the service-wide web target, never the parent's.
            let post = try get(client, "/users/42/posts/7?x=%C3%A9", agent: Self.windows)
            #expect(post.header("location") == "https://www.example.com/users/42/posts/7?x=%C3%A9")
            // HEAD answers the same, counts nothing.
            let head = try client.request(
                "HEAD", "/users/1", headers: ["Host": "links.example.com", "User-Agent": Self.windows])
            #expect(head.status == 302)
            #expect(head.header("location") == "https://www.example.com/u/1")
            #expect(head.header("cache-control") == "no-store")
            #expect(head.header("x-robots-tag") == "noindex")
            #expect(head.body.isEmpty)
            let stats = try server.client().get("/v1/stats/clicks")
            #expect(stats.json?["clicks"] == 3)
            #expect(stats.json?["byPlatform"] == ["ios": 1, "android": 0, "desktop": 2])
        }
    }

    @Test func androidStoreGetsTheReferrerAndTheTokenCanBeClaimedOnce() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let reply = try get(links(server), "/users/42?_lsp=ios&lst=zz", agent: Self.android)
            #expect(reply.status == 302)
            let location = try #require(reply.header("location"))
            #expect(
                location.hasPrefix(
                    "https://play.google.com/store/apps/details?id=com.example.app&referrer=utm_source%3Dmail%26linkserver_token%3D"
                ))
            #expect(location.hasSuffix("%26linkserver_link%3Dhttps%253A%252F%252Flinks.example.com%252Fusers%252F42"))
            let referrer = try #require(PlayReferrer.queryValue("referrer", in: location))
            let token = try #require(PlayReferrer.queryValue("linkserver_token", in: "?" + referrer))
            #expect(token.count >= 22)
            // §9: the token holds the resolution at click time: the route replaced since then does not change it.
            #expect(try server.client().request("DELETE", "/v1/routes/user").status == 204)
            let replacement: JSONValue = ["path": "/users/:id", "name": "member", "destination": ["screen": "New"]]
            #expect(try server.client().post("/v1/routes", replacement).status == 201)
            // An installId is kept on the token's row: one longer than 256 characters is refused, the token left alone.
            let long = try server.client().post(
                "/v1/deferred/claim",
                ["token": .string(token), "installId": .string(String(repeating: "i", count: 257))])
            #expect(long.status == 400)
            #expect(long.errorCode == "invalid_request")
            #expect(long.errorDetails?["field"] == "installId")
            // Counted in Unicode scalars, as JSON Schema's maxLength counts: 257 emoji are too many, 256 "é" (512
            // bytes) are not (an unknown token then).
            let emoji = try server.client().post(
                "/v1/deferred/claim",
                ["token": .string(token), "installId": .string(String(repeating: "😀", count: 257))])
            #expect(emoji.status == 400)
            let accents = try server.client().post(
                "/v1/deferred/claim", ["token": "nonsense", "installId": .string(String(repeating: "é", count: 256))])
            #expect(accents.errorCode == "unknown_token")
            let claim = try server.client().post(
                "/v1/deferred/claim",
                ["token": .string(token), "installId": .string(String(repeating: "i", count: 256))])
            #expect(claim.status == 200)
            #expect(claim.json?["platform"] == "android")
            #expect(claim.json?["link"] == "https://links.example.com/users/42")
            #expect(claim.json?["resolution"]?["route"]?["name"] == "user")
            #expect(claim.json?["resolution"]?["destination"] == .null)
            #expect(claim.json?["resolution"]?["params"] == ["id": "42"])
            let clickedAt = try #require(claim.json?["clickedAt"]?.stringValue)
            #expect(UTCCalendar.milliseconds(parsing: clickedAt) != nil, "\(clickedAt)")
            // The same install again within 10 minutes gets the same answer; anyone else gets unknown_token.
            let again = try links(server).post(
                "/v1/deferred/claim",
                ["token": .string(token), "installId": .string(String(repeating: "i", count: 256))],
                headers: ["Host": "links.example.com"])
            #expect(again.status == 200)
            #expect(again.json?["link"] == claim.json?["link"])
            let other = try server.client().post("/v1/deferred/claim", ["token": .string(token), "installId": "i2"])
            #expect(other.status == 404)
            #expect(other.errorCode == "unknown_token")
            #expect(try server.client().post("/v1/deferred/claim", ["token": "nonsense"]).errorCode == "unknown_token")
            // `installId` is optional: `null` (as many encoders write an absent optional) is none, not a 400.
            let withNull = try server.client().post("/v1/deferred/claim", ["token": .string(token), "installId": nil])
            #expect(withNull.errorCode == "unknown_token")
        }
    }

    /// An empty `installId` is no id: its claim is answered once, and a second claim with `""` (another device
    /// whose app sends an empty id) is `unknown_token`, not the first device's link again.
    @Test func anEmptyInstallIdIsNoId() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let token = try #require(try links(server).click("/users/42", agent: Self.android).playToken)
            let first = try server.client().post("/v1/deferred/claim", ["token": .string(token), "installId": ""])
            #expect(first.status == 200)
            let second = try server.client().post("/v1/deferred/claim", ["token": .string(token), "installId": ""])
            #expect(second.status == 404)
            #expect(second.errorCode == "unknown_token")
        }
    }

    /// §9: "No fingerprinting: no IP address or device signature is stored with a token". The stored row has the
    /// token, the resolution, the platform, the times, the link and the install id once claimed: nothing of the
    /// click's address, agent or language.
    @Test func aTokenIsStoredWithoutTheClicksAddressOrAgent() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let client = links(server)
            try client.connect(from: "127.0.0.9")
            let reply = try client.click(
                "/users/42", agent: Self.android + " Fingerprint/12345", headers: ["Accept-Language": "de-CH"])
            let token = try #require(reply.playToken)
            let store = try #require(server.application.store as? SQLiteStore)
            let rows = try store.database.read { db in try GRDB.Row.fetchAll(db, sql: "SELECT * FROM deferred_token") }
            #expect(rows.count == 1)
            let row = try #require(rows.first)
            #expect(
                Set(row.columnNames) == [
                    "token", "resolution", "platform", "clicked_at", "link", "expires_at", "claimed_at", "install_id",
                ])
            #expect(row["token"] == token)
            for trace in ["127.0.0.9", "Fingerprint", "Pixel", "Android 14", "de-CH"] {
                #expect(!row.description.contains(trace), "\(trace)")
            }
        }
    }

    /// A token lives `links.deferredTTL` seconds (§9), however short: claimed after that, it is `unknown_token`.
    @Test func aTokenPastItsTTLIsUnknown() throws {
        try withServer({ Self.configure(&$0) { $0.links.deferredTTL = 1 } }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let location = try #require(try get(links(server), "/users/7", agent: Self.android).header("location"))
            let referrer = try #require(PlayReferrer.queryValue("referrer", in: location))
            let token = try #require(PlayReferrer.queryValue("linkserver_token", in: "?" + referrer))
            // Past the token's second of life (the expiry is the click's time plus the TTL, on the wall clock).
            Thread.sleep(forTimeInterval: 1.2)
            let late = try server.client().post("/v1/deferred/claim", ["token": .string(token)])
            #expect(late.status == 404)
            #expect(late.errorCode == "unknown_token")
        }
    }

    @Test func inAppBrowsersGetAnIntentPage() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let reply = try get(links(server), "/users/42", agent: Self.instagram)
            #expect(reply.status == 200)
            #expect(
                reply.text.contains(
                    "intent://links.example.com/users/42#Intent;scheme=https;package=com.example.app;S.browser_fallback_url=https%3A%2F%2Fplay.google.com"
                ))
        }
    }

    /// HEAD answers the same headers as GET (§7), `Content-Length` included, for the pages that carry a token
    /// on GET: written with a stand-in of a token's length, which is never stored nor claimable.
    @Test func headOfATokenPageHasTheLengthOfItsGet() throws {
        try withServer({ Self.configure(&$0, landing: true) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let client = links(server)
            for agent in [Self.iPhone, Self.instagram] {
                let got = try get(client, "/users/42", agent: agent)
                let head = try client.request(
                    "HEAD", "/users/42", headers: ["Host": "links.example.com", "User-Agent": agent])
                #expect(got.status == 200 && head.status == 200, "\(agent)")
                #expect(head.header("content-length") == got.header("content-length"), "\(agent)")
                #expect(head.header("content-length") == String(got.body.count), "\(agent)")
                #expect(head.body.isEmpty)
            }
            // A prefetch's GET is not counted and draws no token: its HEAD has no stand-in either.
            let prefetch = ["Host": "links.example.com", "User-Agent": Self.iPhone, "Sec-Purpose": "prefetch"]
            let prefetchGet = try client.request("GET", "/users/42", headers: prefetch)
            let prefetchHead = try client.request("HEAD", "/users/42", headers: prefetch)
            #expect(prefetchGet.status == 200)
            #expect(prefetchHead.header("content-length") == prefetchGet.header("content-length"))
            // §7, §9: HEAD creates no token: the two GETs stored one each, the HEADs none (an Android person's HEAD
            // to the store neither).
            let androidHead = try client.request(
                "HEAD", "/users/42", headers: ["Host": "links.example.com", "User-Agent": Self.android])
            #expect(androidHead.status == 302)
            #expect(try server.application.store.countDeferredTokens() == 2)
            let standIn = try server.client().post("/v1/deferred/claim", ["token": .string(DeferredTokens.standIn)])
            #expect(standIn.errorCode == "unknown_token")
        }
    }

    /// Once its client's token budget is spent, a GET draws no token, so its HEAD has no stand-in either: the same
    /// `Content-Length` (§7), and the HEAD spends none of the budget.
    @Test func headOfATokenPageAfterTheBudgetHasTheLengthOfItsGet() throws {
        try withServer({ Self.configure(&$0, landing: true) { $0.links.tokenRateLimit = 1 } }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let client = links(server)
            func head() throws -> HTTPClient.Reply {
                try client.request(
                    "HEAD", "/users/42", headers: ["Host": "links.example.com", "User-Agent": Self.iPhone])
            }
            let headBefore = try head()
            let first = try get(client, "/users/42", agent: Self.iPhone)
            #expect(headBefore.header("content-length") == first.header("content-length"))
            let headAfter = try head()
            let second = try get(client, "/users/42", agent: Self.iPhone)
            #expect(second.body.count < first.body.count)  // no token: the budget of one was spent by the first
            #expect(headAfter.header("content-length") == second.header("content-length"))
            #expect(try server.application.store.countDeferredTokens() == 1)
        }
    }

    /// An IPv6 entry of links.hosts, with or without brackets, admits the Host header that names it.
    @Test(arguments: ["[::1]", "::1"])
    func anIPv6HostIsAdmitted(entry: String) throws {
        try withServer({ Self.configure(&$0) { $0.linkHosts = [entry] } }) { (server) throws in
            let client = links(server)
            #expect(try client.get("/robots.txt", headers: ["Host": "[::1]:8081"]).status == 200)
            #expect(try client.get("/robots.txt", headers: ["Host": "[::2]:8081"]).status == 404)
        }
    }

    @Test func previewBotsGetACardAndCrawlersTheDesktopTarget() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let card = try get(links(server), "/users/42?_lsp=x", agent: Self.slack)
            #expect(card.status == 200)
            #expect(card.text.contains(#"<meta property="og:title" content="42 on Example &lt;b&gt;">"#))
            #expect(card.text.contains(#"<meta property="og:url" content="https://links.example.com/users/42">"#))
            #expect(card.text.contains(#"<meta property="og:site_name" content="Example">"#))
            #expect(card.text.contains(#"<meta name="twitter:card" content="summary">"#))
            #expect(card.text.contains(#"<link rel="canonical" href="https://www.example.com/u/42">"#))
            #expect(!card.text.contains("<script"))
            let crawler = try get(links(server), "/users/42", agent: Self.google)
            #expect(crawler.status == 302)
            #expect(crawler.header("location") == "https://www.example.com/u/42")
            let stats = try server.client().get("/v1/stats/clicks")
            #expect(stats.json?["bots"] == 2)
            #expect(stats.json?["clicks"] == 0)
        }
    }

    /// A bot's repeated click is answered from the decisions kept (``LinkEngine/decideClick(_:key:counted:now:facts:)``):
    /// the same answer, counted each time, another host or agent decided on its own, every route write followed by
    /// the very next click, and a link that can expire decided every time.
    @Test func aBotsRepeatedClickIsKeptAndFollowsEveryRouteWrite() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.post("/v1/routes", Self.userRoute).status == 201)
            let client = links(server)
            // Decided twice (kept the second time), then answered from what was kept.
            let cards = try (0..<3).map { _ in try get(client, "/users/42", agent: Self.slack) }
            #expect(cards.allSatisfy { $0.status == 200 && $0.body == cards[0].body })
            #expect(cards[2].header("content-type") == "text/html; charset=utf-8")
            #expect(cards[2].header("x-robots-tag") == "noindex")
            #expect(cards[2].text.contains(#"<meta property="og:title" content="42 on Example &lt;b&gt;">"#))
            let other = try get(client, "/users/42", agent: Self.slack, host: "a.example.org")
            #expect(other.text.contains(#"<meta property="og:url" content="https://a.example.org/users/42">"#))
            for _ in 0..<3 {
                let crawler = try get(client, "/users/42", agent: Self.google)
                #expect(crawler.status == 302 && crawler.header("location") == "https://www.example.com/u/42")
            }
            // A route write: the very next card follows it.
            let renamed: JSONValue = [
                "routes": [
                    [
                        "path": "/users/:id", "name": "user",
                        "link": ["desktop": "https://www.example.com/u/{id}", "preview": ["title": "{id}, renamed"]],
                    ]
                ]
            ]
            #expect(try api.request("PUT", "/v1/routes", json: renamed).status == 200)
            #expect(try get(client, "/users/42", agent: Self.slack).text.contains(#"content="42, renamed">"#))
            // A link with a window depends on the time: decided every time.
            let promo: JSONValue = [
                "path": "/promo/:code",
                "link": ["validUntil": "2999-01-01T00:00:00Z", "preview": ["title": "Promo {code}"]],
            ]
            #expect(try api.post("/v1/routes", promo).status == 201)
            for _ in 0..<3 { #expect(try get(client, "/promo/x", agent: Self.slack).text.contains("Promo x")) }
            #expect(try api.get("/v1/stats/clicks").json?["bots"] == 11)
            let metrics = try api.get("/metrics").text
            #expect(metrics.contains(#"linkserver_click_answers_total{clicker="bot",source="kept"} 2"#))
            #expect(metrics.contains(#"linkserver_click_answers_total{clicker="bot",source="decided"} 9"#))
            #expect(metrics.contains(#"linkserver_link_decisions_total{decision="preview",platform="preview"} 8"#))
            #expect(metrics.contains(#"linkserver_link_decisions_total{decision="redirect",platform="crawler"} 3"#))
        }
    }

    /// A person's repeated click is kept as a bot's is, unless its decision can carry a deferred-link token: an
    /// Android phone's (the Play Store's referrer) and, with landing pages, an iPhone's get a new token every time.
    @Test func aPersonsRepeatedClickIsKeptUnlessItCanCarryAToken() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.post("/v1/routes", Self.userRoute).status == 201)
            let client = links(server)
            // One agent's three clicks, then the other's: interleaved, the two keys would overwrite each other's
            // "seen" note when their hashes (seeded at random per start) share its slot, one start in 4,096.
            for _ in 0..<3 {
                let iPhone = try get(client, "/users/42", agent: Self.iPhone)
                #expect(iPhone.status == 302 && iPhone.header("location") == "https://apps.apple.com/app/id123456789")
            }
            for _ in 0..<3 {
                let desktop = try get(client, "/users/42", agent: Self.windows)
                #expect(desktop.status == 302 && desktop.header("location") == "https://www.example.com/u/42")
            }
            // Three Play Store referrers, three tokens: decided every time, each claimable.
            let tokens = try (0..<3).map { _ in
                let location = try #require(try get(client, "/users/42", agent: Self.android).header("location"))
                let referrer = try #require(PlayReferrer.queryValue("referrer", in: location))
                return try #require(PlayReferrer.queryValue("linkserver_token", in: "?" + referrer))
            }
            #expect(Set(tokens).count == 3)
            for token in tokens {
                #expect(try api.post("/v1/deferred/claim", ["token": .string(token)]).status == 200)
            }
            // A route write: the very next click follows it.
            let moved: JSONValue = [
                "routes": [
                    ["path": "/users/:id", "name": "user", "link": ["desktop": "https://www.example.com/v/{id}"]]
                ]
            ]
            #expect(try api.request("PUT", "/v1/routes", json: moved).status == 200)
            #expect(
                try get(client, "/users/42", agent: Self.windows).header("location") == "https://www.example.com/v/42")
            let stats = try api.get("/v1/stats/clicks")
            #expect(stats.json?["clicks"] == 10)
            #expect(stats.json?["byPlatform"] == ["ios": 3, "android": 3, "desktop": 4])
            let metrics = try api.get("/metrics").text
            #expect(metrics.contains(#"linkserver_click_answers_total{clicker="person",source="kept"} 2"#))
            #expect(metrics.contains(#"linkserver_click_answers_total{clicker="person",source="decided"} 8"#))
            #expect(metrics.contains(#"linkserver_link_decisions_total{decision="redirect",platform="desktop"} 4"#))
        }
        // With landing pages, an iPhone's every click is a landing page with a token of its own.
        try withServer({ Self.configure(&$0, landing: true) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let marker = "https://links.example.com/users/42?lst="
            let tokens = try (0..<3).map { _ in
                let page = try get(links(server), "/users/42", agent: Self.iPhone).text
                let start = try #require(page.range(of: marker))
                return String(page[start.upperBound...].prefix { $0 != "\"" })
            }
            #expect(Set(tokens).count == 3)
            let metrics = try server.client().get("/metrics").text
            #expect(metrics.contains(#"linkserver_click_answers_total{clicker="person",source="decided"} 3"#))
            #expect(metrics.contains(#"linkserver_click_answers_total{clicker="person",source="kept"} 0"#))
        }
    }

    @Test func ambiguousSafariIsAskedAndTheFollowUpIsTheClick() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let check = try get(links(server), "/users/42", agent: Self.macSafari)
            #expect(check.status == 200)
            #expect(check.text.contains("navigator.maxTouchPoints > 1"))
            #expect(check.text.contains("https://links.example.com/users/42?_lsp=ios"))
            #expect(check.text.contains(#": "https://links.example.com/users/42?_lsp=desktop")"#))
            #expect(check.text.contains(#"<noscript><a href="https://links.example.com/users/42?_lsp=desktop">"#))
            // Asked as JSON: the same decision, with the link's resolution (the route matched).
            let asked = try get(links(server), "/users/42", agent: Self.macSafari, accept: "application/json")
            #expect(asked.json?["decision"] == "platform_check")
            #expect(asked.json?["resolution"]?["route"]?["name"] == "user")
            let ios = try get(links(server), "/users/42?_lsp=ios", agent: Self.macSafari)
            #expect(ios.header("location") == "https://apps.apple.com/app/id123456789")
            let desktop = try get(links(server), "/users/42?_lsp=desktop", agent: Self.macSafari)
            #expect(desktop.header("location") == "https://www.example.com/u/42")
            let stats = try server.client().get("/v1/stats/clicks")
            #expect(stats.json?["clicks"] == 2)
            #expect(stats.json?["byPlatform"] == ["ios": 1, "android": 0, "desktop": 1])
        }
    }

    @Test func jsonAnswersDescribeTheDecisionWithoutCounting() throws {
        try withServer({ Self.configure(&$0) { $0.readToken = "r" } }) { (server) throws in
            #expect(
                try server.client().post("/v1/routes", Self.userRoute, headers: ["Authorization": "Bearer r"]).status
                    == 201)
            let reply = try get(links(server), "/users/42", agent: Self.iPhone, accept: "application/json")
            #expect(reply.status == 200)
            #expect(
                reply.json == [
                    "decision": "redirect", "status": 302, "target": "https://apps.apple.com/app/id123456789",
                    "platform": "ios", "bot": false,
                ])
            let withToken = try links(server).get(
                "/users/42",
                headers: ["Host": "links.example.com", "Accept": "application/json", "Authorization": "Bearer r"])
            #expect(withToken.json?["resolution"]?["route"]?["name"] == "user")
            let missing = try get(links(server), "/nothing", agent: Self.iPhone, accept: "application/json")
            #expect(missing.json?["decision"] == "not_found")
            #expect(missing.json?["status"] == 404)
            let stats = try server.client().get("/v1/stats/clicks", headers: ["Authorization": "Bearer r"])
            #expect(stats.json?["clicks"] == 0)
            #expect(stats.json?["unmatched"] == 0)
            // Each media type compared whole, `q=0` refusing it, repeated lines one list (RFC 9110 §12.5.1).
            for accept in ["application/jsonx", "application/json;q=0", "application/json, text/html;q=0.5"] {
                #expect(
                    try get(links(server), "/users/42", agent: Self.iPhone, accept: accept).status == 302, "\(accept)")
            }
            for accept in [
                "Application/JSON; charset=utf-8", "text/html;q=0, application/json", "*/*, application/json",
            ] {
                #expect(
                    try get(links(server), "/users/42", agent: Self.iPhone, accept: accept).status == 200, "\(accept)")
            }
            let raw = links(server)
            try raw.sendRaw(
                Array(
                    "GET /users/42 HTTP/1.1\r\nHost: links.example.com\r\nAccept: application/json\r\nAccept: text/html\r\n\r\n"
                        .utf8))
            #expect(try raw.readResponse().status == 302)
        }
    }

    /// A store that cannot write (a full disk, here a trigger that refuses every row) fails no click: a click that
    /// would make a deferred-link token is answered without one (the Play referrer still carries the link), and one
    /// that would count towards `maxClicks` is answered as expired; each was a 500 in the error envelope.
    @Test func aStoreThatCannotWriteFailsNoClick() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let limited: JSONValue = [
                "path": "/promo/:code", "link": ["maxClicks": 5, "expiredURL": "https://www.example.com/expired"],
            ]
            #expect(try server.client().post("/v1/routes", limited).status == 201)
            let store = try #require(server.application.store as? SQLiteStore)
            try store.database.write { db in
                for table in ["deferred_token", "link_click_limit"] {
                    try db.execute(
                        sql: "CREATE TRIGGER refuse_\(table) BEFORE INSERT ON \(table) "
                            + "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
                }
            }
            for index in 0..<3 {
                let click = try links(server).click("/users/\(index)", agent: Self.android)
                #expect(click.status == 302)
                #expect(click.playToken == nil)
                #expect(click.playReferrer?.contains("linkserver_link=") == true)
            }
            let promo = try get(links(server), "/promo/x", agent: Self.windows)
            #expect(promo.header("location") == "https://www.example.com/expired")
            #expect(try server.application.store.countDeferredTokens() == 0)
        }
    }

    @Test func maxClicksHoldsExactlyUnderConcurrencyAndExpiryRedirects() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            let route: JSONValue = [
                "path": "/promo/:code", "name": "promo",
                "link": ["maxClicks": 100, "expiredURL": "https://www.example.com/expired?c={code}"],
            ]
            #expect(try server.client().post("/v1/routes", route).status == 201)
            let expiredRoute: JSONValue = ["path": "/old", "link": ["validUntil": "2020-01-01T00:00:00Z"]]
            #expect(try server.client().post("/v1/routes", expiredRoute).status == 201)
            // 1,000 clicks from 20 concurrent connections: exactly 100 reach the target.
            let results = ConcurrentResults()
            let port = server.application.linksPort
            DispatchQueue.concurrentPerform(iterations: 20) { _ in
                let client = HTTPClient(port: port)
                for _ in 0..<50 {
                    let reply = try? client.get(
                        "/promo/x", headers: ["Host": "links.example.com", "User-Agent": Self.windows])
                    results.add(reply?.header("location") ?? "failed")
                }
            }
            #expect(results.values.count == 1000)
            #expect(results.values.filter { $0 == "https://www.example.com/promo/x" }.count == 100)
            #expect(results.values.filter { $0 == "https://www.example.com/expired?c=x" }.count == 900)
            let gone = try get(links(server), "/old", agent: Self.windows)
            #expect(gone.status == 410)
            #expect(gone.header("content-type") == "text/html; charset=utf-8")
            let open = try server.client().post(
                "/v1/links/opens", ["url": "https://links.example.com/promo/x", "platform": "ios"])
            #expect(open.json?["decision"] == "expired")
            #expect(open.json?["target"] == "https://www.example.com/expired?c=x")
            let metrics = try server.client().get("/metrics").text
            #expect(metrics.contains(#"linkserver_link_decisions_total{decision="redirect",platform="desktop"} 100"#))
            #expect(metrics.contains(#"linkserver_link_decisions_total{decision="expired",platform="desktop"} 901"#))
            #expect(metrics.contains(#"linkserver_link_decisions_total{decision="expired",platform="ios"} 1"#))
            // Every request of the listener is counted under its label too (a request is counted once its answer
            // was sent, so the last ones may be counted just after the client read them).
            #expect(
                try waitUntil {
                    let text = try server.client().get("/metrics").text
                    return text.contains(
                        #"linkserver_http_requests_total{endpoint="links:click",method="GET",status="302"} 1000"#)
                        && text.contains(
                            #"linkserver_http_requests_total{endpoint="links:click",method="GET",status="410"} 1"#)
                })
        }
    }

    @Test func concurrentClaimsOfOneTokenSucceedOnce() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let reply = try get(links(server), "/users/42", agent: Self.android)
            let referrer = try #require(PlayReferrer.queryValue("referrer", in: reply.header("location") ?? ""))
            let token = try #require(PlayReferrer.queryValue("linkserver_token", in: "?" + referrer))
            let results = ConcurrentResults()
            let port = server.port
            DispatchQueue.concurrentPerform(iterations: 50) { index in
                let claim = try? HTTPClient(port: port).post(
                    "/v1/deferred/claim", ["token": .string(token), "installId": .string("install-\(index)")])
                results.add("\(claim?.status ?? 0) \(claim?.errorCode ?? "")")
            }
            #expect(results.values.filter { $0 == "200 " }.count == 1)
            #expect(results.values.filter { $0 == "404 unknown_token" }.count == 49)
        }
    }

    @Test func aBurstOfTenThousandRandomClaimsLeavesTheServerHealthy() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            let results = ConcurrentResults()
            let port = server.port
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let client = HTTPClient(port: port)
                var unknown = 0
                for _ in 0..<2_500 {
                    let claim = try? client.post("/v1/deferred/claim", ["token": .string(DeferredTokens.newToken())])
                    if claim?.errorCode == "unknown_token" { unknown += 1 }
                }
                results.add(String(unknown))
            }
            #expect(results.values.compactMap(Int.init).reduce(0, +) == 10_000)
            #expect(try server.client().get("/healthz").status == 200)
        }
    }

    @Test func oddTokensAndOddRequestsGetClearAnswers() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            let api = server.client()
            for token in [String(repeating: "a", count: 10_000), "a/b", "a\u{0}b", "", "%00"] {
                let claim = try api.post("/v1/deferred/claim", ["token": .string(token)])
                #expect(claim.status == 404)
                #expect(claim.errorCode == "unknown_token")
            }
            #expect(try api.post("/v1/deferred/claim", ["token": 5]).errorCode == "invalid_request")
            #expect(try api.post("/v1/deferred/claim", ["installId": "x"]).errorCode == "invalid_request")
            let client = links(server)
            let longAgent = try get(client, "/users/1", agent: String(repeating: "x", count: 10_000))
            #expect(longAgent.status == 404)
            let controls = try client.get(
                "/users/1", headers: ["Host": "links.example.com", "User-Agent": "a\u{1}\u{7f}b"])
            #expect(controls.status == 404)
            let longTarget = try get(client, "/" + String(repeating: "a", count: 8000), agent: Self.windows)
            #expect(longTarget.status == 404)
            let malformed = try get(client, "/users/%zz", agent: Self.windows)
            #expect(malformed.status == 400)
            #expect(malformed.header("content-type") == "text/html; charset=utf-8")
            #expect(try client.request("POST", "/users/1", headers: ["Host": "links.example.com"]).status == 405)
            // Any Accept-Language is a click's language or none; an element without a tag once stopped the process.
            for language in [";", ";;q=1", ", ;", "*"] {
                let odd = try client.get(
                    "/users/1",
                    headers: ["Host": "links.example.com", "User-Agent": Self.windows, "Accept-Language": language])
                #expect(odd.status == 404)
            }
            // Many different unmatched paths: one counter, not a row per path.
            for index in 0..<200 { _ = try get(client, "/nothing/\(index)", agent: Self.windows) }
            #expect(try api.get("/v1/stats/clicks").json?["unmatched"] == 207)
            let rows = try server.application.store.loadClickCounts(from: 0, to: Int64.max / 86_400_000)
            #expect(rows.filter { $0.key.kind == .unmatched }.count <= 1)
            #expect(try api.get("/healthz").status == 200)
        }
    }

    @Test func appOpensAreCountedAndEmitted() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.post("/v1/routes", Self.userRoute).status == 201)
            let subscription = try api.post(
                "/v1/events/subscriptions", ["events": [["path": "/links/clicks/:route", "name": "linkClick"]]])
            let id = try #require(subscription.json?["id"]?.stringValue)
            // A counted click, an unmatched bot (counted, never emitted), then an app open.
            #expect(try get(links(server), "/users/8", agent: Self.windows).status == 302)
            #expect(try get(links(server), "/nothing", agent: Self.google).status == 404)
            // The link the app was opened with, as a click's, without the reserved items `_lsp` and `lst` (§7).
            let open = try links(server).post(
                "/v1/links/opens",
                ["url": "https://links.example.com/users/9?lst=abc&tab=a&_lsp=ios", "platform": "android"],
                headers: ["Host": "links.example.com"])
            #expect(open.status == 200)
            #expect(open.json?["decision"] == "open")
            #expect(open.json?["resolution"]?["location"] == "/users/9?tab=a")
            let events = try api.get("/v1/events/subscriptions/\(id)?after=0&wait=5")
            let list = events.json?["events"]?.arrayValue ?? []
            #expect(list.count == 2)
            let click = try #require(list.first)
            #expect(click["location"] == "/links/clicks/user")
            #expect(
                click["extra"] == [
                    "platform": "desktop", "bot": false, "location": "/users/8",
                    "target": "https://www.example.com/u/8", "decision": "redirect", "via": "click",
                ])
            let event = try #require(list.last)
            #expect(event["location"] == "/links/clicks/user")
            #expect(event["extra"]?["via"] == "app")
            #expect(event["extra"]?["location"] == "/users/9?tab=a")
            #expect(event["extra"]?["decision"] == "open")
            #expect(event["extra"]?["platform"] == "android")
            let bad = try api.post("/v1/links/opens", ["url": "https://links.example.com/users/9", "platform": "web"])
            #expect(bad.errorCode == "invalid_request")
            // A link on a host outside `links.hosts` matches nothing (§2): no resolution, an unmatched open.
            let elsewhere = try api.post(
                "/v1/links/opens", ["url": "https://evil.example.net/users/9", "platform": "ios"])
            #expect(elsewhere.json == ["decision": "not_found", "target": nil, "resolution": nil])
            // The app endpoints on a `Host` outside `links.hosts`: 404 in the error envelope, not a page.
            let unknownHost = try links(server).post(
                "/v1/links/opens", ["url": "https://links.example.com/users/9", "platform": "ios"],
                headers: ["Host": "evil.example.net"])
            #expect(unknownHost.status == 404)
            #expect(unknownHost.errorCode == "not_found")
            let stats = try api.get("/v1/stats/clicks")
            #expect(stats.json?["opens"] == 1)
            #expect(stats.json?["unmatched"] == 1)
        }
    }

    @Test func appEndpointsAreRateLimitedPerAddress() throws {
        try withServer({ Self.configure(&$0) { $0.links.appRateLimit = 2 } }) { (server) throws in
            let client = links(server)
            // Another method is answered 405 and spends none of the budget.
            for _ in 0..<3 {
                let wrong = try client.get("/v1/links/opens", headers: ["Host": "links.example.com"])
                #expect(wrong.status == 405)
                #expect(wrong.header("allow") == "POST")
            }
            for _ in 0..<2 {
                #expect(
                    try client.post("/v1/deferred/claim", ["token": "x"], headers: ["Host": "links.example.com"]).status
                        == 404)
            }
            let limited = try client.post(
                "/v1/links/opens", ["url": "/x", "platform": "ios"], headers: ["Host": "links.example.com"])
            #expect(limited.status == 429)
            #expect(limited.errorCode == "rate_limited")
            #expect(Int(limited.header("retry-after") ?? "") ?? 0 >= 1)
            #expect(try client.get("/v1/deferred/claim", headers: ["Host": "links.example.com"]).status == 405)
            // The API listener is not limited.
            #expect(try server.client().post("/v1/links/opens", ["url": "/x", "platform": "ios"]).status == 200)
        }
    }

    /// The app endpoints' budget is an IPv6 client's /64's too, as the token budget is: one host would otherwise have
    /// a budget for each of its addresses.
    @Test func anIPv6ClientsAppCallBudgetIsItsNetworks() throws {
        try withServer({
            Self.configure(&$0) { $0.links.appRateLimit = 2 }
            $0.trustedProxies = TrustedProxies([IPNetwork("127.0.0.0/8")].compactMap { $0 })
        }) { (server) throws in
            func claim(from address: String) throws -> Int {
                try links(server).post(
                    "/v1/deferred/claim", ["token": "x"],
                    headers: ["Host": "links.example.com", "X-Forwarded-For": address]
                ).status
            }
            #expect(try claim(from: "2001:db8::1") == 404)
            #expect(try claim(from: "2001:db8::2") == 404)
            #expect(try claim(from: "2001:db8::3") == 429)
            #expect(try claim(from: "2001:db8:0:1::1") == 404)
            // IPv4 clients a dual-stack proxy writes IPv4-mapped are their IPv4 addresses, each with its budget.
            #expect(try claim(from: "::ffff:198.51.100.7") == 404)
            #expect(try claim(from: "::ffff:198.51.100.7") == 404)
            #expect(try claim(from: "::ffff:198.51.100.7") == 429)
            #expect(try claim(from: "::ffff:203.0.113.9") == 404)
            #expect(try claim(from: "203.0.113.9") == 404)
            #expect(try claim(from: "203.0.113.9") == 429)
        }
    }

    /// A deferred-link token is a row kept for `deferredTTL`: each client address's clicks may make
    /// `links.tokenRateLimit` a minute (api-notes), so that one client cannot fill the store's disk by clicking. Past
    /// it, a click is answered as usual without a token (the referrer still carries the link), and counted; another
    /// address has its own budget.
    @Test func tokensAreMadeWithinEachAddresssBudget() throws {
        try withServer({ Self.configure(&$0) { $0.links.tokenRateLimit = 3 } }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let client = links(server)
            var tokens: [String?] = []
            for index in 0..<5 {
                let reply = try client.click("/users/\(index)", agent: Self.android)
                #expect(reply.status == 302)
                #expect(reply.playReferrer?.contains("linkserver_link=") == true)
                tokens.append(reply.playToken)
            }
            #expect(tokens.prefix(3).allSatisfy { $0 != nil })
            #expect(tokens.suffix(2).allSatisfy { $0 == nil })
            let other = HTTPClient(port: server.application.linksPort)
            try other.connect(from: "127.0.0.2")
            #expect(try other.click("/users/9", agent: Self.android).playToken != nil)
            #expect(try server.client().get("/v1/stats/clicks").json?["clicks"] == 6)
        }
    }

    /// The store keeps at most `links.maxDeferredTokens` tokens (api-notes): past it a click from any address is
    /// answered and counted without one, without spending the address's own budget; the count is read from the
    /// store at start, so a restart on a full store makes none either, and a purge of expired tokens makes room.
    @Test func theStoreKeepsAtMostMaxDeferredTokens() throws {
        let dataDir = TestServer.temporaryDirectory()
        let configure: (inout Config) -> Void = {
            Self.configure(&$0) {
                $0.links.maxDeferredTokens = 2
                $0.links.tokenRateLimit = 2
            }
        }
        try withServer(dataDir: dataDir, configure) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let client = links(server)
            var tokens: [String?] = []
            for index in 0..<2 { tokens.append(try client.click("/users/\(index)", agent: Self.android).playToken) }
            let other = HTTPClient(port: server.application.linksPort)
            try other.connect(from: "127.0.0.2")
            let full = try other.click("/users/9", agent: Self.android)
            #expect(full.status == 302)
            #expect(full.playReferrer?.contains("linkserver_link=") == true)
            tokens.append(full.playToken)
            #expect(tokens.map { $0 != nil } == [true, true, false])
            #expect(try server.client().get("/v1/stats/clicks").json?["clicks"] == 3)
            #expect(try server.application.store.countDeferredTokens() == 2)
            #expect(try server.client().get("/metrics").text.contains("linkserver_deferred_tokens 2"))
        }
        try withServer(dataDir: dataDir, configure) { (server) throws in
            let other = HTTPClient(port: server.application.linksPort)
            try other.connect(from: "127.0.0.3")
            #expect(try other.click("/users/1", agent: Self.android).playToken == nil)
            // Both expire; the purge makes room (the address kept its budget: it made none while the store was full).
            #expect(try server.application.store.purgeDeferredTokens(before: .max) == 2)
            try server.application.links.recountTokens()
            #expect(try other.click("/users/2", agent: Self.android).playToken != nil)
            #expect(try other.click("/users/3", agent: Self.android).playToken != nil)
        }
    }

    /// An IPv6 client's budget is its /64's (the network one host is given), so a host cannot take a new budget with
    /// each of its addresses; behind a trusted proxy, the address `X-Forwarded-For` names counts.
    @Test func anIPv6ClientsTokenBudgetIsItsNetworks() throws {
        try withServer({
            Self.configure(&$0) { $0.links.tokenRateLimit = 1 }
            $0.trustedProxies = TrustedProxies([IPNetwork("127.0.0.0/8")].compactMap { $0 })
        }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            func token(from address: String) throws -> String? {
                try links(server).click("/users/1", agent: Self.android, headers: ["X-Forwarded-For": address])
                    .playToken
            }
            #expect(try token(from: "2001:db8::1") != nil)
            #expect(try token(from: "2001:db8::2") == nil)
            #expect(try token(from: "2001:db8:0:1::1") != nil)
            #expect(try token(from: "203.0.113.7") != nil)
            #expect(try token(from: "203.0.113.8") != nil)
        }
    }

    /// A link as clicked longer than 2,048 bytes gets no token and is left out of the Play referrer (api-notes): the
    /// token would keep it, and twice encoded in the `Location` it would no longer fit the connection's memory, so
    /// the click went unanswered. The person still reaches the store.
    @Test func aLongLinkReachesTheStoreWithoutTokenOrLink() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let client = links(server)
            let long = "/users/42?u=" + String(repeating: "%2F", count: 1600)
            let reply = try client.click(long, agent: Self.android)
            #expect(reply.status == 302)
            #expect(
                reply.header("location")?.hasPrefix(
                    "https://play.google.com/store/apps/details?id=com.example.app&referrer=") == true)
            #expect(reply.playReferrer == "?utm_source=mail")
            let short = try client.click("/users/42?u=" + String(repeating: "a", count: 1900), agent: Self.android)
            #expect(short.playToken != nil)
            #expect(short.playReferrer?.contains("linkserver_link=") == true)
        }
    }

    /// A link longer than the target limit (8 KiB) is refused before any handler sees it: on this listener with the
    /// 414 page and the click headers (it was the API's JSON envelope, without them); the app endpoints, whose
    /// callers read JSON, keep the envelope.
    @Test func aLinkOverTheTargetLimitIsThe414PageWithTheClickHeaders() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            let tooLong = try links(server).click("/users/" + String(repeating: "a", count: 8200), agent: Self.windows)
            #expect(tooLong.status == 414)
            #expect(tooLong.header("content-type") == "text/html; charset=utf-8")
            #expect(tooLong.header("cache-control") == "no-store")
            #expect(tooLong.header("x-robots-tag") == "noindex")
            #expect(tooLong.text.contains("Link too long"))
            let claim = try links(server).post(
                "/v1/deferred/claim?" + String(repeating: "a", count: 8200), ["token": "x"],
                headers: ["Host": "links.example.com"])
            #expect(claim.status == 414)
            #expect(claim.errorCode == "uri_too_long")
            // The same in absolute form (RFC 9112 §3.2.2).
            let absolute = links(server)
            try absolute.sendRaw(
                Array(
                    ("POST http://links.example.com/v1/deferred/claim?\(String(repeating: "a", count: 8200)) HTTP/1.1\r\n"
                        + "Host: links.example.com\r\nContent-Length: 0\r\n\r\n").utf8))
            #expect(try absolute.readResponse().errorCode == "uri_too_long")
            // The API listener answers with the envelope, as before.
            #expect(
                try server.client().get("/v1/resolve?url=/" + String(repeating: "a", count: 8200)).errorCode
                    == "uri_too_long")
            // Each listener's refusals are counted under its own label (once each request has completed).
            let counted = [
                #"linkserver_http_requests_total{endpoint="links:-",method="GET",status="414"} 1"#,
                #"linkserver_http_requests_total{endpoint="links:-",method="POST",status="414"} 2"#,
                #"linkserver_http_requests_total{endpoint="-",method="GET",status="414"} 1"#,
            ]
            var metrics = ""
            let found = try waitUntil {
                metrics = try server.client().get("/metrics").text
                return counted.allSatisfy(metrics.contains)
            }
            #expect(found, "\(metrics)")
        }
    }

    /// An answer whose head would not fit beside the request's in the connection's 16 KiB (a redirect repeating a
    /// long link after a head full of cookies) was never sent: libmicrohttpd closed the connection. It is now the
    /// 414 page, and the connection is closed after it; a little less still gets its redirect.
    @Test func anAnswerThatWouldNotFitIsThe414Page() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let cookie = String(repeating: "c", count: 2500)
            let tooLong = try links(server).click(
                "/users/" + String(repeating: "a", count: 6000), agent: Self.windows, headers: ["Cookie": cookie])
            #expect(tooLong.status == 414)
            #expect(tooLong.header("content-type") == "text/html; charset=utf-8")
            #expect(tooLong.header("connection") == "close")
            #expect(tooLong.text.contains("Link too long"))
            let fits = try links(server).click(
                "/users/" + String(repeating: "a", count: 4500), agent: Self.windows, headers: ["Cookie": cookie])
            #expect(fits.status == 302)
            #expect(fits.header("location") == "https://www.example.com/u/" + String(repeating: "a", count: 4500))
        }
    }

    /// RFC 9112 §3.2.2: with an absolute-form target the server uses its authority and ignores `Host`, so the
    /// `links.hosts` check reads the URL's host (a listed host in the URL is served whatever `Host` says, an unlisted
    /// one is the 404 page even with a listed `Host`).
    @Test func anAbsoluteFormTargetsHostIsTheHostChecked() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let listed = try links(server).click(
                "http://links.example.com/users/42", agent: Self.windows, host: "evil.example.net")
            #expect(listed.status == 302)
            #expect(listed.header("location") == "https://www.example.com/u/42")
            let unlisted = try links(server).click("http://evil.example.net/users/42", agent: Self.windows)
            #expect(unlisted.status == 404)
        }
    }

    /// Without `links.hosts` any host is served, but a click that names none (HTTP/1.0 without `Host`, or an empty
    /// one) has no "link as clicked" (`https://` + `Host` + target, §7): the 400 page, where it made `https:///…`.
    @Test func aClickThatNamesNoHostIsTheBadLinkPage() throws {
        try withServer({ Self.configure(&$0) { $0.linkHosts = nil } }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            for head in [
                "GET /users/42 HTTP/1.0\r\nUser-Agent: Twitterbot/1.0\r\n\r\n",
                "GET /users/42 HTTP/1.1\r\nHost:\r\nUser-Agent: \(Self.windows)\r\nConnection: close\r\n\r\n",
            ] {
                let client = links(server)
                try client.sendRaw(Array(head.utf8))
                let reply = try client.readResponse()
                #expect(reply.status == 400, "\(head)")
                #expect(reply.text.contains("This request names no host."))
                #expect(reply.header("cache-control") == "no-store")
                #expect(!reply.text.contains("https:///"))
            }
            // With a host, served.
            #expect(try get(links(server), "/users/42", agent: Self.windows, host: "anything.example").status == 302)
        }
    }

    /// The Host check is the decision's first step (§7), so a click asking for JSON (step 7) on an unlisted host gets
    /// the `not_found` decision, as the console's decision endpoint shows it, not the page.
    @Test func anUnlistedHostsJSONClickIsTheNotFoundDecision() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let client = links(server)
            let headers = ["Host": "evil.example.net", "Accept": "application/json", "User-Agent": Self.windows]
            let decision = try client.get("/users/42", headers: headers)
            #expect(decision.status == 200)
            #expect(decision.header("content-type")?.hasPrefix("application/json") == true)
            #expect(decision.header("cache-control") == "no-store")
            #expect(decision.header("x-robots-tag") == "noindex")
            #expect(
                decision.json
                    == [
                        "decision": "not_found", "status": 404, "target": nil, "platform": "desktop", "bot": false,
                        "resolution": nil,
                    ])
            // The same through the console's decision endpoint.
            let inspected = try server.client().get(
                "/v1/links/decision?url=https%3A%2F%2Fevil.example.net%2Fusers%2F42&platform=desktop")
            #expect(inspected.json == decision.json)
            // A reserved file and a page request stay the 404 page.
            #expect(try client.get("/.well-known/other", headers: headers).status == 404)
            #expect(try client.get("/users/42", headers: ["Host": "evil.example.net"]).status == 404)
        }
    }

    @Test func behindATrustedProxyEachForwardedClientHasItsOwnBudget() throws {
        try withServer({
            Self.configure(&$0) { $0.links.appRateLimit = 1 }
            $0.trustedProxies = TrustedProxies([IPNetwork("127.0.0.0/8")].compactMap { $0 })
        }) { (server) throws in
            let client = links(server)
            func claim(from address: String) throws -> Int {
                try client.post(
                    "/v1/deferred/claim", ["token": "x"],
                    headers: ["Host": "links.example.com", "X-Forwarded-For": "198.51.100.1, " + address]
                ).status
            }
            #expect(try claim(from: "203.0.113.7") == 404)
            #expect(try claim(from: "203.0.113.7") == 429)
            // Another client behind the same proxy; what a client writes left of the proxy's entry does not count.
            #expect(try claim(from: "203.0.113.8") == 404)
        }
    }

    @Test func withoutTrustedProxiesForwardedForIsIgnored() throws {
        try withServer({ Self.configure(&$0) { $0.links.appRateLimit = 1 } }) { (server) throws in
            let client = links(server)
            func claim(from address: String) throws -> Int {
                try client.post(
                    "/v1/deferred/claim", ["token": "x"],
                    headers: ["Host": "links.example.com", "X-Forwarded-For": address]
                ).status
            }
            #expect(try claim(from: "203.0.113.7") == 404)
            #expect(try claim(from: "203.0.113.8") == 429)
        }
    }

    @Test func associationFilesAreDeterministicWithETags() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let route: JSONValue = ["path": "/web/only", "name": "web", "link": ["appLinks": false]]
            #expect(try server.client().post("/v1/routes", route).status == 201)
            let client = links(server)
            let aasa = try client.get("/.well-known/apple-app-site-association", headers: ["Host": "links.example.com"])
            #expect(aasa.status == 200)
            #expect(aasa.header("content-type") == "application/json")
            #expect(aasa.header("cache-control") == "max-age=300")
            let etag = try #require(aasa.header("etag"))
            #expect(etag.count == 18)
            let components = aasa.json?["applinks"]?["details"]?.arrayValue?.first?["components"]?.arrayValue ?? []
            #expect(
                components.map { $0["/"]?.stringValue ?? "" } == [
                    "/web/only", "/web/only/", "/users/?*/posts/?*", "/users/?*",
                ])
            #expect(components[0]["exclude"] == true)
            #expect(components[1]["exclude"] == true)
            let legacy = try client.get("/apple-app-site-association", headers: ["Host": "links.example.com"])
            #expect(legacy.body == aasa.body)
            let cached = try client.get(
                "/.well-known/apple-app-site-association",
                headers: ["Host": "links.example.com", "If-None-Match": etag])
            #expect(cached.status == 304)
            // A 304 declares no length but the one a 200 sends (RFC 9110 §8.6).
            #expect(cached.header("Content-Length") == String(aasa.body.count))
            let android = try client.get("/.well-known/assetlinks.json", headers: ["Host": "links.example.com"])
            #expect(
                android.json?.arrayValue?.first?["target"]?["sha256_cert_fingerprints"] == [
                    "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
                ])
            #expect(try client.get("/.well-known/other", headers: ["Host": "links.example.com"]).status == 404)
            #expect(
                try client.get("/robots.txt", headers: ["Host": "links.example.com"]).text
                    == "User-agent: *\nAllow: /\n")
            #expect(try client.get("/favicon.ico", headers: ["Host": "links.example.com"]).status == 404)
            // Another host is not served at all; a wildcard host is.
            #expect(try client.get("/users/1", headers: ["Host": "evil.example.net"]).status == 404)
            #expect(try get(client, "/users/1", agent: Self.windows, host: "a.example.org:8081").status == 302)
            // A route write changes the file and its ETag.
            #expect(try server.client().post("/v1/routes", ["path": "/new"]).status == 201)
            let changed = try client.get(
                "/.well-known/apple-app-site-association", headers: ["Host": "links.example.com"])
            #expect(changed.header("etag") != etag)
        }
    }

    /// The file follows every route table, also when two writes came between two fetches: a table freed in between
    /// leaves its memory to the next, so a cache keyed by a table's address would serve the older file.
    @Test func theFileFollowsTwoRouteWritesBetweenFetches() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            let client = links(server)
            for round in 0..<12 {
                let before = try client.get(
                    "/.well-known/apple-app-site-association", headers: ["Host": "links.example.com"])
                #expect(before.status == 200)
                #expect(try server.client().post("/v1/routes", ["path": .string("/a\(round)")]).status == 201)
                #expect(try server.client().post("/v1/routes", ["path": .string("/b\(round)")]).status == 201)
                let after = try client.get(
                    "/.well-known/apple-app-site-association", headers: ["Host": "links.example.com"])
                let components = after.json?["applinks"]?["details"]?.arrayValue?.first?["components"]?.arrayValue
                #expect(components?.contains { $0["/"]?.stringValue == "/b\(round)" } == true, "round \(round)")
            }
        }
    }

    @Test func aRouteWriteThatOutgrowsApplesLimitIsRefused() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            let routes: [JSONValue] = (0..<5_000).map { ["path": .string("/p\($0)/:id"), "name": .string("r\($0)")] }
            // A minute to answer: a debug build under ThreadSanitizer builds this file slowly.
            let client = server.client()
            try client.connect(timeoutSeconds: 60)
            let reply = try client.request("PUT", "/v1/routes", json: ["routes": .array(routes)])
            #expect(reply.status == 422)
            #expect(reply.errorCode == "association_too_large")
            #expect(reply.errorDetails?["limit"] == 131_072)
            #expect((reply.errorDetails?["bytes"]?.intValue ?? 0) > 131_072)
            #expect(try server.client().get("/v1/routes").json?["routes"]?.arrayValue?.count == 0)
        }
    }

    @Test func reservedFilesFollowTheirSettingsAndTheListenerCanBeOff() throws {
        try withServer({
            Self.configure(&$0) {
                $0.links.robotsTxt = "User-agent: *\nAllow: /\n# ours\n"
                $0.links.faviconURL = "https://www.example.com/favicon.ico"
                $0.links.redirectStatus = 308
            }
        }) { (server) throws in
            let client = links(server)
            #expect(try client.get("/robots.txt", headers: ["Host": "links.example.com"]).text.hasSuffix("# ours\n"))
            let icon = try client.get("/favicon.ico", headers: ["Host": "links.example.com"])
            #expect(icon.status == 308)
            #expect(icon.header("location") == "https://www.example.com/favicon.ico")
            // The reserved files are read as clicks are: any method but GET and HEAD is 405 with Allow.
            for (method, path) in [
                ("POST", "/robots.txt"), ("DELETE", "/favicon.ico"), ("PUT", "/.well-known/assetlinks.json"),
                ("POST", "/.well-known/apple-app-site-association"), ("PATCH", "/apple-app-site-association"),
                ("POST", "/.well-known/other"),
            ] {
                let refused = try client.request(method, path, headers: ["Host": "links.example.com"])
                #expect(refused.status == 405, "\(method) \(path)")
                #expect(refused.errorCode == "method_not_allowed")
                #expect(refused.header("allow") == "GET, HEAD")
            }
            #expect(try client.request("HEAD", "/robots.txt", headers: ["Host": "links.example.com"]).status == 200)
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            #expect(try get(client, "/users/1", agent: Self.windows).status == 308)
            // The API is never served on the links listener: /v1/routes there is a click like any other.
            let api = try client.get(
                "/v1/routes", headers: ["Host": "links.example.com", "Accept": "application/json"])
            #expect(api.json?["decision"] == "not_found")
        }
        try withServer({ Self.configure(&$0) { $0.links.enabled = false } }) { (server) throws in
            #expect(server.application.linksPort == 0)
            #expect(try server.client().get("/readyz").status == 200)
        }
    }

    /// §7: the app endpoints are "served on both listeners with the same bodies and errors", and the reserved paths
    /// are outside routing and statistics. A spelling the API listener takes for an app endpoint (a trailing `/`, an
    /// empty segment, an escape), or that a location reads as a reserved file's path (§2), is that endpoint or file
    /// on the links listener too, never a click (they were clicks, and an open's `POST` a 405).
    @Test func everySpellingOfAReservedPathIsServedAsIt() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.post("/v1/routes", Self.userRoute).status == 201)
            let client = links(server)
            let host = ["Host": "links.example.com"]
            let open: JSONValue = ["url": "https://links.example.com/users/1", "platform": "ios"]
            for path in ["/v1/links/opens/", "/v1//links/opens", "/v1/links/%6Fpens"] {
                for listener in [client, api] {
                    let answer = try listener.post(path, open, headers: host)
                    #expect(answer.status == 200, "\(path)")
                    #expect(answer.json?["decision"] == "open", "\(path)")
                }
            }
            for path in ["/v1/deferred/claim/", "//v1/deferred/claim"] {
                for listener in [client, api] {
                    let claim = try listener.post(path, ["token": "nope"], headers: host)
                    #expect(claim.status == 404, "\(path)")
                    #expect(claim.errorCode == "unknown_token", "\(path)")
                }
            }
            let robots = try client.get("/robots.txt/", headers: host)
            #expect(robots.status == 200)
            #expect(robots.header("content-type") == "text/plain; charset=utf-8")
            let association = try client.get("//.well-known//assetlinks.json", headers: host)
            #expect(association.status == 200)
            guard case .array(let statements)? = association.json else {
                Issue.record("assetlinks.json is not an array")
                return
            }
            #expect(statements.first?["target"]?["package_name"] == "com.example.app")
            #expect(try client.get("/.well-known/x/", headers: host).status == 404)
            // A `/` decoded from `%2F` stays inside its segment (§2): that path is a link like any other (it matches
            // no route: counted as unmatched below).
            let click = try client.get(
                "/.well-known%2Fassetlinks.json", headers: ["Host": "links.example.com", "User-Agent": Self.windows])
            #expect(click.status == 404)
            let stats = try api.get("/v1/stats/clicks")
            #expect(stats.json?["clicks"] == 0)
            #expect(stats.json?["opens"] == 6)
            #expect(stats.json?["unmatched"] == 1)
        }
    }

    @Test func iosLandingPageCarriesTheTokenInTheCopiedLink() throws {
        try withServer({ Self.configure(&$0, landing: true) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", Self.userRoute).status == 201)
            let page = try get(links(server), "/users/42", agent: Self.iPhone)
            #expect(page.status == 200)
            #expect(page.header("referrer-policy") == "no-referrer")
            #expect(
                page.text.contains(
                    #"<meta name="apple-itunes-app" content="app-id=123456789, app-argument=https://links.example.com/users/42">"#
                ))
            #expect(page.text.contains("navigator.clipboard.writeText"))
            #expect(page.text.contains("myapp://users/42"))
            let marker = "https://links.example.com/users/42?lst="
            let start = try #require(page.text.range(of: marker))
            let token = String(page.text[start.upperBound...].prefix { $0 != "\"" })
            let claim = try server.client().post("/v1/deferred/claim", ["token": .string(token)])
            #expect(claim.status == 200)
            #expect(claim.json?["platform"] == "ios")
        }
    }

    @Test func reservedRoutesAndBadLinksAreRefusedAtRegistration() throws {
        try withServer({ Self.configure(&$0) }) { (server) throws in
            let api = server.client()
            for path in ["/.well-known/x", "/robots.txt", "/favicon.ico/:id"] {
                let reserved = try api.post("/v1/routes", ["path": .string(path)])
                #expect(reserved.status == 400)
                #expect(reserved.errorCode == "invalid_pattern")
                // §1: the details of invalid_pattern carry pattern, position (the reserved first segment) and reason.
                #expect(reserved.errorDetails?["pattern"] == .string(path))
                #expect(reserved.errorDetails?["position"] == 0)
                #expect(reserved.errorDetails?["reason"] == "reserved path")
            }
            let bad = try api.post("/v1/routes", ["path": "/u/:id", "link": ["ios": "https://{id}.example.com/"]])
            #expect(bad.errorCode == "invalid_request")
            #expect(bad.errorDetails?["field"] == "link.ios")
            let listed = try api.post("/v1/routes", Self.userRoute)
            #expect(listed.status == 201)
            let routes = try api.get("/v1/routes")
            #expect(routes.json?["routes"]?.arrayValue?.first?["link"]?["desktop"] == "https://www.example.com/u/{id}")
        }
    }
}

/// Collects values from concurrent workers.
final class ConcurrentResults: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ value: String) { lock.withLock { stored.append(value) } }
    var values: [String] { lock.withLock { stored } }
}
