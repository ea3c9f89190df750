import Foundation
import Testing

@testable import LinkCore

/// What the pages of a click decision hold (API.md §7 steps 5 and 6, §9): the preview card's fields, each from the
/// route's `link.preview` or else from `links.preview`, its cuts and its canonical link; the intent page and the
/// landing page's "open it" link only with the app's scheme.
@Suite struct ClickPageContentTests {
    static let routes = #"""
        [{"path": "/own/:id",
          "link": {"fallback": "https://www.example.com/f/{id}", "preview": {"title": "{id} own"}}},
         {"path": "/bare/:id", "link": {"preview": {"description": "{id} bare"}}},
         {"path": "/long", "link": {"preview": {"description": "LONG"}}},
         {"path": "/desk/:id",
          "link": {"desktop": "https://www.example.com/d/{id}", "fallback": "https://www.example.com/f/{id}"}}]
        """#

    static func resolver(description: String = "") -> Resolver {
        var table = RouteTable()
        table.linkPolicy = LinkPolicy(iosScheme: "myapp", androidScheme: "myapp")
        let text = routes.replacingOccurrences(of: "LONG", with: description)
        for route in (try! JSONParser.parse(Array(text.utf8))).arrayValue! {
            table = try! table.registering(try! RouteDefinition(json: route), source: .api).table
        }
        return Resolver(table: table)
    }

    /// ``ClickDeciderTests``' settings with `links.preview` set field by field.
    static func settings(image: Bool = true) -> LinksSettings {
        var settings = ClickDeciderTests.settings()
        settings.preview.title = try! LinkTemplate(text: "Site title", field: "links.preview.title")
        settings.preview.description = try! LinkTemplate(text: "Site description", field: "links.preview.description")
        if image {
            settings.preview.image = try! LinkTemplate(
                text: "https://cdn.example.com/card.png", field: "links.preview.image")
        }
        return settings
    }

    static func decide(
        _ path: String, platform: Platform = .desktop, bot: BotKind? = nil, inApp: Bool = false,
        settings: LinksSettings, resolver: Resolver = ClickPageContentTests.resolver()
    ) throws -> ClickDecision {
        let facts = ClickFacts(
            location: try Location(path), linkAsClicked: "https://links.example.com" + path, host: "links.example.com",
            platform: platform, bot: bot, inAppBrowser: inApp)
        return ClickDecider(settings: settings).decide(
            .init(facts: facts, lsp: nil, now: ClickDeciderTests.now, counted: true, token: { "TOK" }),
            resolver: resolver)
    }

    /// The `content` of the page's `<meta>` with `attribute`, or `nil`.
    static func meta(_ attribute: String, in page: String) -> String? {
        guard let line = page.split(separator: "\n").first(where: { $0.contains(attribute + "\"") }),
            let start = line.range(of: "content=\"")
        else { return nil }
        return String(line[start.upperBound...].prefix { $0 != "\"" })
    }

    /// §7: "absent fields fall back to the service-wide settings (`links.preview` field by field)".
    @Test func eachPreviewFieldFallsBackToLinksPreviewOnItsOwn() throws {
        let own = try #require(try Self.decide("/own/7", bot: .preview, settings: Self.settings()).page)
        #expect(Self.meta("og:title", in: own) == "7 own")
        #expect(Self.meta("og:description", in: own) == "Site description")
        #expect(Self.meta("og:image", in: own) == "https://cdn.example.com/card.png")
        #expect(Self.meta("twitter:card", in: own) == "summary_large_image")
        #expect(Self.meta("og:url", in: own) == "https://links.example.com/own/7")
        #expect(Self.meta("og:site_name", in: own) == "Example")
        let bare = try #require(try Self.decide("/bare/7", bot: .preview, settings: Self.settings()).page)
        #expect(Self.meta("og:title", in: bare) == "Site title")
        #expect(Self.meta("og:description", in: bare) == "7 bare")
        // Without an image anywhere, the small card.
        let small = try #require(try Self.decide("/bare/7", bot: .preview, settings: Self.settings(image: false)).page)
        #expect(Self.meta("og:image", in: small) == nil)
        #expect(Self.meta("twitter:card", in: small) == "summary")
    }

    /// §7 step 5: the canonical link is the route's web target: `link.desktop`, else `link.fallback`, else
    /// `links.webURL`.
    @Test func theCanonicalLinkIsDesktopElseFallbackElseWebURL() throws {
        let cases = [
            ("/desk/7", "https://www.example.com/d/7"), ("/own/7", "https://www.example.com/f/7"),
            ("/bare/7", "https://www.example.com/bare/7"),
        ]
        for (path, canonical) in cases {
            let page = try #require(try Self.decide(path, bot: .preview, settings: Self.settings()).page)
            #expect(page.contains("<link rel=\"canonical\" href=\"\(canonical)\">"), "\(path)")
        }
    }

    /// §7 step 5: the description is cut to 200 characters (counted before escaping), nothing added.
    @Test func theDescriptionIsCutTo200Characters() throws {
        let long = String(repeating: "é", count: 150) + String(repeating: "x", count: 100)
        let page = try #require(
            try Self.decide(
                "/long", bot: .preview, settings: Self.settings(), resolver: Self.resolver(description: long)
            )
            .page)
        let description = try #require(Self.meta("og:description", in: page))
        #expect(description == String(long.prefix(200)))
        #expect(Self.meta("description", in: page) == description)
    }

    /// §7 step 6: an Android in-app browser gets the intent page only when `apps.android.scheme` is set; without
    /// it, the redirect any Android person gets.
    @Test func theIntentPageNeedsTheAndroidScheme() throws {
        let withScheme = try Self.decide("/bare/7", platform: .android, inApp: true, settings: Self.settings())
        #expect(withScheme.kind == .intent && withScheme.status == 200)
        var settings = Self.settings()
        settings.android?.scheme = nil
        let without = try Self.decide("/bare/7", platform: .android, inApp: true, settings: settings)
        #expect(without.kind == .redirect)
        #expect(without.status == 302)
        #expect(without.page == nil)
        #expect(without.target?.hasPrefix("https://play.google.com/store/apps/details?id=com.example.app") == true)
    }

    /// §9: the landing page's "Already have the app? Open it" link is there with `apps.ios.scheme` only.
    @Test func theLandingPagesOpenLinkNeedsTheIOSScheme() throws {
        var settings = Self.settings()
        settings.ios?.landingPage = true
        let with = try #require(try Self.decide("/bare/7", platform: .ios, settings: settings).page)
        #expect(with.contains("<a href=\"myapp://bare/7\">Already have the app? Open it</a>"))
        // A first segment with `@` and `:` is escaped where it stands for the link's host (`appURL` below).
        var table = RouteTable()
        table.linkPolicy = LinkPolicy(iosScheme: "myapp")
        table = try table.registering(try RouteDefinition(json: ["path": "/:code", "link": [:]]), source: .api).table
        let atSign = try #require(
            try Self.decide("/a%40b.com%3A80", platform: .ios, settings: settings, resolver: Resolver(table: table))
                .page)
        #expect(atSign.contains("<a href=\"myapp://a%40b.com%3A80\">Already have the app? Open it</a>"))
        settings.ios?.scheme = nil
        let landing = try Self.decide("/bare/7", platform: .ios, settings: settings)
        #expect(landing.kind == .landing)
        let without = try #require(landing.page)
        #expect(!without.contains("Already have the app"))
        #expect(!without.contains("myapp://"))
        #expect(without.contains("href=\"https://apps.apple.com/app/id123456789\""))
    }

    /// The "Open it" link puts the first segment where a URL's authority stands: an `@` or `:` there is escaped, so
    /// that the app reads the location clicked (§2) and not a user and host (`myapp://a@evil.com:80`).
    @Test(arguments: [
        ("/a%40evil.com%3A80/x?q=a@b:c", "myapp://a%40evil.com%3A80/x?q=a@b:c"),
        ("/users/a@b", "myapp://users/a@b"),
        ("/", "myapp://"),
        ("/%5B1%5D?x", "myapp://%5B1%5D?x"),
    ])
    func theOpenLinksFirstSegmentIsNoAuthority(clicked: String, expected: String) throws {
        let location = try Location(clicked)
        let open = ClickDecider.appURL(scheme: "myapp", location: location)
        #expect(open == expected)
        let back = try Location(open)
        #expect(back.segments == location.segments)
        #expect(back.query == location.query)
    }
}
