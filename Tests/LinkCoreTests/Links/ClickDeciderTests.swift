import Foundation
import Testing

@testable import LinkCore

/// The click decision (API.md §7 steps 2–6) as a table: one row per branch.
@Suite struct ClickDeciderTests {
    static let now = UTCCalendar.milliseconds(parsing: "2026-11-23T12:00:00Z")!

    static func settings(landing: Bool = false, notFound: Bool = false, preview: Bool = false, web: Bool = true)
        -> LinksSettings
    {
        var settings = LinksSettings()
        if web {
            settings.webURL = try! LinksSettings.urlTemplate("https://www.example.com{location}", field: "webURL")
        }
        settings.siteName = "Example"
        if notFound { settings.notFoundURL = "https://www.example.com/404" }
        if preview { settings.preview.title = try! LinkTemplate(text: "Example", field: "t") }
        var ios = LinksSettings.IOSApp(appIDs: [try! AppleAppID("ABCDE12345.com.example.app")])
        ios.scheme = "myapp"
        ios.storeURL = "https://apps.apple.com/app/id123456789"
        ios.landingPage = landing
        settings.ios = ios
        settings.android = LinksSettings.AndroidApp(
            package: try! AndroidPackageName("com.example.app"), scheme: "myapp",
            fingerprints: [try! CertificateFingerprint(String(repeating: "AB", count: 32))],
            storeURL: "https://play.google.com/store/apps/details?id=com.example.app")
        return settings
    }

    static let routes = #"""
        [{"path": "/users/:id", "name": "user",
          "link": {"ios": "myapp://users/{id}", "desktop": "https://www.example.com/u/{id}",
                   "preview": {"title": "{id} on Example", "description": "Say \"hi\" to {id}"}}},
         {"path": "/promo/:code", "link": {"maxClicks": 2, "expiredURL": "https://www.example.com/expired/{code}"}},
         {"path": "/old", "link": {"validUntil": "2026-01-01T00:00:00Z"}},
         {"path": "/gone/:code", "redirect": [{"to": "/app/{code}"}],
          "link": {"validUntil": "2026-01-01T00:00:00Z",
                   "expiredURL": "https://www.example.com/expired/{code}?from={location}"}},
         {"path": "/soon", "link": {"validFrom": "2027-01-01T00:00:00Z", "fallback": "https://www.example.com/soon"}},
         {"path": "/app/:id", "link": {"fallback": "https://www.example.com/a/{id}"}},
         {"path": "/gated", "redirect": [{"when": {"==": [{"var": "context.click.platform"}, "android"]},
                                          "to": "/app/android"}]},
         {"path": "/blocked", "redirect": [{"when": true, "action": "intercept"}]},
         {"path": "/loop/a", "redirect": [{"to": "/loop/b"}]},
         {"path": "/loop/b", "redirect": [{"to": "/loop/a"}]},
         {"path": "/hop/:n", "redirect": [{"to": "/hop/{n}1"}]}]
        """#

    static func resolver() -> Resolver {
        var table = RouteTable()
        table.linkPolicy = LinkPolicy(iosScheme: "myapp", androidScheme: "myapp")
        for route in (try! JSONParser.parse(Array(routes.utf8))).arrayValue! {
            table = try! table.registering(try! RouteDefinition(json: route), source: .api).table
        }
        return Resolver(table: table)
    }

    struct Row: Sendable, CustomStringConvertible {
        var name: String
        var path: String
        var platform: Platform = .desktop
        var bot: BotKind? = nil
        var inApp = false
        var lsp: String? = nil
        var counted = true
        var clicks: Int? = nil
        var settings: LinksSettings = ClickDeciderTests.settings()
        var kind: ClickDecision.Kind
        var status: Int
        var target: String?
        var tokenUsed = false
        var description: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "desktop person: the route's desktop target", path: "/users/42", kind: .redirect, status: 302,
            target: "https://www.example.com/u/42"),
        Row(
            name: "ios person: the route's ios target", path: "/users/42", platform: .ios, kind: .redirect,
            status: 302, target: "myapp://users/42"),
        Row(
            name: "android person without a target: the store, with a token", path: "/users/42",
            platform: .android, kind: .redirect, status: 302,
            target: "https://play.google.com/store/apps/details?id=com.example.app&referrer="
                + "linkserver_token%3DTOKEN%26linkserver_link%3Dhttps%253A%252F%252Flinks.example.com%252Fusers%252F42",
            tokenUsed: true),
        Row(
            name: "android in-app browser: the intent page", path: "/users/42", platform: .android, inApp: true,
            kind: .intent, status: 200,
            target: "https://play.google.com/store/apps/details?id=com.example.app&referrer="
                + "linkserver_token%3DTOKEN%26linkserver_link%3Dhttps%253A%252F%252Flinks.example.com%252Fusers%252F42",
            tokenUsed: true),
        Row(
            name: "fallback before the store", path: "/app/7", platform: .ios, kind: .redirect, status: 302,
            target: "https://www.example.com/a/7"),
        Row(
            name: "no link: the iOS store", path: "/gated", platform: .ios, kind: .redirect, status: 302,
            target: "https://apps.apple.com/app/id123456789"),
        Row(
            name: "no link: webURL for desktop", path: "/gated?x=1", kind: .redirect, status: 302,
            target: "https://www.example.com/gated?x=1"),
        Row(
            name: "a rule on context.click.platform", path: "/gated", platform: .android, kind: .redirect,
            status: 302, target: "https://www.example.com/a/android"),
        Row(
            name: "ios landing page with a token", path: "/gated", platform: .ios,
            settings: ClickDeciderTests.settings(landing: true), kind: .landing, status: 200,
            target: "https://apps.apple.com/app/id123456789", tokenUsed: true),
        Row(name: "no match: 404 page", path: "/nothing", kind: .notFound, status: 404, target: nil),
        Row(
            name: "no match: notFoundURL", path: "/nothing", settings: ClickDeciderTests.settings(notFound: true),
            kind: .notFound, status: 302, target: "https://www.example.com/404"),
        Row(name: "an intercepting rule: not found", path: "/blocked", kind: .notFound, status: 404, target: nil),
        Row(
            name: "an intercepting rule: notFoundURL", path: "/blocked",
            settings: ClickDeciderTests.settings(notFound: true), kind: .notFound, status: 302,
            target: "https://www.example.com/404"),
        // Step 3: a loop and the redirect limit end the click as no match does.
        Row(name: "a redirect loop: not found", path: "/loop/a", kind: .notFound, status: 404, target: nil),
        Row(
            name: "a redirect loop: notFoundURL", path: "/loop/a", settings: ClickDeciderTests.settings(notFound: true),
            kind: .notFound, status: 302, target: "https://www.example.com/404"),
        Row(name: "past the redirect limit: not found", path: "/hop/1", kind: .notFound, status: 404, target: nil),
        Row(
            name: "past the redirect limit: notFoundURL", path: "/hop/1",
            settings: ClickDeciderTests.settings(notFound: true), kind: .notFound, status: 302,
            target: "https://www.example.com/404"),
        // Step 6: a link that matched but leads nowhere for this person is a 404 page; notFoundURL is step 3's.
        Row(
            name: "no target at all: a 404 page, not notFoundURL", path: "/gated",
            settings: ClickDeciderTests.settings(notFound: true, web: false), kind: .notFound, status: 404,
            target: nil),
        Row(name: "after validUntil: 410", path: "/old", kind: .expired, status: 410, target: nil),
        Row(name: "before validFrom: 410", path: "/soon", kind: .expired, status: 410, target: nil),
        Row(
            name: "within maxClicks", path: "/promo/x", clicks: 1, kind: .redirect, status: 302,
            target: "https://www.example.com/promo/x"),
        Row(
            name: "maxClicks reached: expiredURL", path: "/promo/x", clicks: 2, kind: .expired, status: 302,
            target: "https://www.example.com/expired/x"),
        // The clicked route's expiredURL takes its {param}s from the clicked route, not the route the rules led to.
        Row(
            name: "expired with a redirect rule: expiredURL with its own parameters", path: "/gone/x", kind: .expired,
            status: 302, target: "https://www.example.com/expired/x?from=%2Fapp%2Fx"),
        Row(
            name: "ambiguous person: the platform check", path: "/users/42", platform: .ambiguous,
            kind: .platformCheck, status: 200, target: nil),
        Row(
            name: "ambiguous person who chose ios", path: "/users/42", platform: .ambiguous, lsp: "ios",
            kind: .redirect, status: 302, target: "myapp://users/42"),
        Row(
            name: "_lsp is ignored for others", path: "/users/42", platform: .android, lsp: "desktop",
            kind: .redirect, status: 302,
            target: "https://play.google.com/store/apps/details?id=com.example.app&referrer="
                + "linkserver_token%3DTOKEN%26linkserver_link%3Dhttps%253A%252F%252Flinks.example.com%252Fusers%252F42",
            tokenUsed: true),
        Row(
            name: "not counted (HEAD, a prefetch): the link in the referrer, no token", path: "/users/42",
            platform: .android, counted: false, kind: .redirect, status: 302,
            target: "https://play.google.com/store/apps/details?id=com.example.app&referrer="
                + "linkserver_link%3Dhttps%253A%252F%252Flinks.example.com%252Fusers%252F42"),
        Row(
            name: "preview bot: the card", path: "/users/42", platform: .ios, bot: .preview, kind: .preview,
            status: 200, target: nil),
        Row(
            name: "preview bot without any preview: the desktop target", path: "/app/1", bot: .preview,
            kind: .redirect, status: 302, target: "https://www.example.com/a/1"),
        Row(
            name: "preview bot with links.preview", path: "/app/1", bot: .preview,
            settings: ClickDeciderTests.settings(preview: true), kind: .preview, status: 200, target: nil),
        Row(
            name: "crawler on a phone: what a desktop person gets, no token", path: "/users/42", platform: .android,
            bot: .crawler, kind: .redirect, status: 302, target: "https://www.example.com/u/42"),
    ]

    @Test(arguments: rows)
    func decides(row: Row) throws {
        let location = try Location(row.path)
        let facts = ClickFacts(
            location: location, linkAsClicked: "https://links.example.com" + row.path, host: "links.example.com",
            platform: row.platform, bot: row.bot, inAppBrowser: row.inApp)
        let decision = ClickDecider(settings: row.settings).decide(
            .init(
                facts: facts, lsp: row.lsp, now: Self.now, counted: row.counted, clicksCounted: row.clicks,
                token: { "TOKEN" }),
            resolver: Self.resolver())
        #expect(decision.kind == row.kind)
        #expect(decision.status == row.status)
        #expect(decision.target == row.target)
        #expect(decision.tokenUsed == row.tokenUsed)
        // A decision that can carry a token is one the engine never keeps, and the engine's pre-check agrees.
        if decision.tokenUsed { #expect(decision.drawsToken) }
        if decision.drawsToken, row.bot == nil {
            #expect(ClickDecider(settings: row.settings).mayDrawToken(row.platform))
        }
        #expect(
            (decision.page != nil) == [.preview, .landing, .intent, .platformCheck].contains(row.kind)
                || (decision.page != nil && [404, 410].contains(row.status)))
        // Step 3: nothing internal leaks into a page (an error's code, a rule's chain, where a redirect led).
        if let page = decision.page, [404, 410].contains(row.status) {
            for leak in ["redirect_loop", "redirect_limit", "rule_error", "/loop/b", "/hop/11", "chain"] {
                #expect(!page.contains(leak), "\(leak)")
            }
        }
    }

    /// ``ClickDecision/drawsToken`` marks the decisions that carry a token when counted, counted or not; the
    /// engine decides those anew for every click, and does not look up people whose platform may draw one.
    @Test func drawsTokenMarksTheStoresDecisionsCountedOrNot() throws {
        func decision(_ path: String, _ platform: Platform, landing: Bool, counted: Bool, android: Bool = true)
            throws -> ClickDecision
        {
            var settings = Self.settings(landing: landing)
            if !android { settings.android = nil }
            let facts = ClickFacts(
                location: try Location(path), linkAsClicked: "https://links.example.com" + path,
                host: "links.example.com", platform: platform, bot: nil)
            return ClickDecider(settings: settings).decide(
                .init(facts: facts, lsp: nil, now: Self.now, counted: counted, token: { "T" }),
                resolver: Self.resolver())
        }
        for counted in [true, false] {
            let landing = try decision("/gated", .ios, landing: true, counted: counted)
            #expect(landing.kind == .landing && landing.drawsToken && landing.tokenUsed == counted)
            let play = try decision("/users/42", .android, landing: false, counted: counted)
            #expect(play.kind == .redirect && play.drawsToken && play.tokenUsed == counted)
            #expect(try !decision("/gated", .ios, landing: false, counted: counted).drawsToken)
            #expect(try !decision("/users/42", .desktop, landing: true, counted: counted).drawsToken)
            #expect(try !decision("/users/42", .android, landing: true, counted: counted, android: false).drawsToken)
        }
        var noAndroid = Self.settings(landing: false)
        noAndroid.android = nil
        #expect(ClickDecider(settings: Self.settings(landing: true)).mayDrawToken(.ios))
        #expect(ClickDecider(settings: Self.settings(landing: true)).mayDrawToken(.ambiguous))
        #expect(!ClickDecider(settings: Self.settings(landing: false)).mayDrawToken(.ios))
        #expect(!ClickDecider(settings: Self.settings(landing: false)).mayDrawToken(.ambiguous))
        #expect(ClickDecider(settings: Self.settings()).mayDrawToken(.android))
        #expect(!ClickDecider(settings: noAndroid).mayDrawToken(.android))
        #expect(!ClickDecider(settings: Self.settings(landing: true)).mayDrawToken(.desktop))
    }

    /// §9: a token is made for a person sent "towards that app's store". An App Store page of another app (another
    /// ID than `apps.ios.storeURL`'s) is a plain redirect, as a Play page of another package is; the app's own page
    /// in another spelling (a country, a campaign) gets the landing page; without a store URL of its own the app's
    /// page cannot be told apart, and every App Store page is taken for it.
    @Test func onlyTheAppsOwnStorePageGetsTheLandingPage() throws {
        var table = RouteTable()
        table.linkPolicy = LinkPolicy(iosScheme: "myapp", androidScheme: "myapp")
        let routes: JSONValue = [
            ["path": "/own", "link": ["ios": "https://apps.apple.com/us/app/example/id123456789?pt=1&ct=c"]],
            ["path": "/other", "link": ["ios": "https://apps.apple.com/app/id987654321"]],
            [
                "path": "/older",
                "link": ["ios": "https://itunes.apple.com/WebObjects/MZStore.woa/wa/viewSoftware?id=123456789"],
            ],
        ]
        for route in routes.arrayValue ?? [] {
            table = try table.registering(try RouteDefinition(json: route), source: .api).table
        }
        func decision(_ path: String, _ settings: LinksSettings) throws -> ClickDecision {
            let facts = ClickFacts(
                location: try Location(path), linkAsClicked: "https://links.example.com" + path,
                host: "links.example.com", platform: .ios, bot: nil)
            return ClickDecider(settings: settings).decide(
                .init(facts: facts, lsp: nil, now: Self.now, counted: true, token: { "T" }),
                resolver: Resolver(table: table))
        }
        let own = try decision("/own", Self.settings(landing: true))
        #expect(own.kind == .landing && own.tokenUsed)
        let other = try decision("/other", Self.settings(landing: true))
        #expect(other.kind == .redirect && !other.drawsToken && other.token == nil)
        #expect(other.target == "https://apps.apple.com/app/id987654321")
        #expect(try decision("/older", Self.settings(landing: true)).kind == .landing)
        var withoutStore = Self.settings(landing: true)
        withoutStore.ios?.storeURL = nil
        #expect(try decision("/other", withoutStore).kind == .landing)
    }

    @Test func previewTextsAreEscapedAndCut() throws {
        let hostile = "<script>alert(\"x\")</script>'" + String(repeating: "y", count: 80)
        let location = Location(segments: ["users", hostile])
        let facts = ClickFacts(
            location: location, linkAsClicked: "https://links.example.com" + location.description,
            host: "links.example.com", platform: .desktop, bot: .preview)
        let decision = ClickDecider(settings: Self.settings()).decide(
            .init(facts: facts, lsp: nil, now: Self.now, counted: true, token: { "T" }), resolver: Self.resolver())
        let page = try #require(decision.page)
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;"))
        #expect(!page.contains("<script"))
        let title = try #require(page.split(separator: "\n").first { $0.contains("og:title") })
        // Cut to its first 70 characters (counted before escaping), nothing added.
        let content = try #require(title.split(separator: "content=\"").last?.split(separator: "\"").first)
        let unescaped = content.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
        #expect(unescaped.count == 70, "\(unescaped)")
        #expect(!title.contains("…"))
        #expect(page.contains(#"<meta property="og:description" content="Say &quot;hi&quot; to &lt;script&gt;"#))
    }

    @Test func theLandingPageCopiesTheLinkWithItsToken() throws {
        let facts = ClickFacts(
            location: try Location("/gated"), linkAsClicked: "https://links.example.com/gated",
            host: "links.example.com", platform: .ios, bot: nil)
        let decision = ClickDecider(settings: Self.settings(landing: true)).decide(
            .init(facts: facts, lsp: nil, now: Self.now, counted: true, token: { "TOK-1" }), resolver: Self.resolver())
        let page = try #require(decision.page)
        #expect(page.contains(#""https://links.example.com/gated?lst=TOK-1""#))
        #expect(page.contains(#"app-id=123456789, app-argument=https://links.example.com/gated"#))
        #expect(page.contains(#"href="myapp://gated""#))
        #expect(page.contains(#"href="https://apps.apple.com/app/id123456789""#))
    }

    /// The banner's content is a comma-separated list: a comma of the link goes as `%2C`, so a link cannot name
    /// another app (`?a=x,app-id=666`); the copied link keeps the link as clicked.
    @Test func aCommaOfTheLinkCannotNameAnotherAppForTheBanner() throws {
        let clicked = "https://links.example.com/gated?a=x,app-id=666"
        let facts = ClickFacts(
            location: try Location("/gated?a=x,app-id=666"), linkAsClicked: clicked, host: "links.example.com",
            platform: .ios, bot: nil)
        let decision = ClickDecider(settings: Self.settings(landing: true)).decide(
            .init(facts: facts, lsp: nil, now: Self.now, counted: true, token: { "TOK-1" }), resolver: Self.resolver())
        let page = try #require(decision.page)
        #expect(
            page.contains(
                #"content="app-id=123456789, app-argument=https://links.example.com/gated?a=x%2Capp-id=666">"#))
        #expect(page.contains(#"value="https://links.example.com/gated?a=x,app-id=666&amp;lst=TOK-1""#))
    }

    @Test func withoutATokenTheStoreURLStillCarriesTheLink() throws {
        // A shared store that is unreachable keeps no token (API.md §12): the person still reaches the store, and
        // the referrer still names the link.
        let facts = ClickFacts(
            location: try Location("/users/42"), linkAsClicked: "https://links.example.com/users/42",
            host: "links.example.com", platform: .android, bot: nil)
        let decision = ClickDecider(settings: Self.settings()).decide(
            .init(facts: facts, lsp: nil, now: Self.now, counted: true, token: { nil }), resolver: Self.resolver())
        #expect(decision.kind == .redirect && !decision.tokenUsed && decision.token == nil)
        let target = try #require(decision.target)
        let referrer = try #require(PlayReferrer.queryValue("referrer", in: target))
        #expect(PlayReferrer.queryValue("linkserver_link", in: "?" + referrer) == "https://links.example.com/users/42")
        #expect(PlayReferrer.queryValue("linkserver_token", in: "?" + referrer) == nil)
        let landing = ClickDecider(settings: Self.settings(landing: true)).decide(
            .init(
                facts: ClickFacts(
                    location: try Location("/gated"), linkAsClicked: "https://links.example.com/gated",
                    host: "links.example.com", platform: .ios, bot: nil), lsp: nil, now: Self.now, counted: true,
                token: { nil }), resolver: Self.resolver())
        #expect(landing.kind == .landing && !landing.tokenUsed)
        #expect(try #require(landing.page).contains(#""https://links.example.com/gated""#))
    }
}
