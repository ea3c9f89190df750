import Testing

@testable import LinkCore

@Suite struct RouteLinkTests {
    static func table(_ routes: String, policy: LinkPolicy = LinkPolicy(iosScheme: "myapp")) throws -> RouteTable {
        var table = RouteTable()
        table.linkPolicy = policy
        let json = try JSONParser.parse(Array(routes.utf8))
        for value in json.arrayValue ?? [] {
            table = try table.registering(try RouteDefinition(json: value), source: .api).table
        }
        return table
    }

    @Test func linkIsCompiledListedAndKeptAsWritten() throws {
        let link = #"""
            {"ios": "myapp://u/{id}", "desktop": "https://www.example.com/u/{id}", "appLinks": false,
             "preview": {"title": "{id} on Example"}, "validFrom": "2026-12-01T00:00:00Z",
             "validUntil": "2026-12-31T23:59:59+01:00", "maxClicks": 1000, "expiredURL": "https://e.com/expired"}
            """#
        let table = try Self.table(#"[{"name": "user", "path": "/users/:id", "link": \#(link)}]"#)
        let route = try #require(table.route(named: "user"))
        let compiled = try #require(route.link)
        #expect(compiled.appLinks == false)
        #expect(compiled.maxClicks == 1000)
        #expect(compiled.validFrom == UTCCalendar.milliseconds(parsing: "2026-12-01T00:00:00.000Z"))
        #expect(compiled.validUntil == UTCCalendar.milliseconds(parsing: "2026-12-31T22:59:59Z"))
        #expect(compiled.isOutsideWindow(at: compiled.validFrom! - 1))
        #expect(!compiled.isOutsideWindow(at: compiled.validFrom!))
        #expect(compiled.isOutsideWindow(at: compiled.validUntil! + 1))
        #expect(table.json(ofRouteAt: 0)["link"] == (try JSONParser.parse(Array(link.utf8))))
        // The definition round-trips through its JSON (what the store keeps).
        let again = try RouteDefinition(json: route.definition.json())
        #expect(again.link == route.definition.link)
    }

    @Test(arguments: [
        (#"{"ios": "otherapp://u/{id}"}"#, "link.ios"),
        (#"{"android": "myapp://u/{id}"}"#, "link.android"),
        (#"{"desktop": "https://x.com/{missing}"}"#, "link.desktop"),
        (#"{"preview": {"title": "{missing}"}}"#, "link.preview.title"),
        (#"{"preview": {"image": "/card.png"}}"#, "link.preview.image"),
        (#"{"ios": "https://apps.apple.com/app/id1?ct=x"}"#, "link.ios"),
        // An empty provider token is none; a campaign token is found by its decoded name.
        (#"{"ios": "https://apps.apple.com/app/id1?pt=&ct=x"}"#, "link.ios"),
        (#"{"ios": "https://apps.apple.com/app/id1?c%74=x"}"#, "link.ios"),
        // The same host written with its trailing dot, or with the default port.
        (#"{"ios": "https://apps.apple.com./app/id1?ct=x"}"#, "link.ios"),
        (#"{"ios": "https://Apps.Apple.com:443/app/id1?ct=x"}"#, "link.ios"),
        // The fallback is the iOS target of a link without `ios`: the same rule.
        (#"{"fallback": "https://apps.apple.com/app/id1?ct=x"}"#, "link.fallback"),
        // A link that could never be valid.
        (#"{"validFrom": "2026-12-02T00:00:00Z", "validUntil": "2026-12-01T00:00:00Z"}"#, "link.validUntil"),
        (#"{"validUntil": "tomorrow"}"#, "link.validUntil"),
        (#"{"maxClicks": 0}"#, "link.maxClicks"),
        (#"{"maxClicks": 2.5}"#, "link.maxClicks"),
        (#"{"maxClicks": "5"}"#, "link.maxClicks"),
        (#"{"unknown": 1}"#, "link.unknown"),
        // Literal text that is not a URL's: it went into `Location` as written.
        (#"{"desktop": "https://d.example.com/a b/{id}"}"#, "link.desktop"),
        (#"{"fallback": "https://d.example.com/%zz"}"#, "link.fallback"),
        (#"{"expiredURL": "https://d.example.com/\u00e9"}"#, "link.expiredURL"),
        (#"{"preview": {"image": "https://d.example.com/a|b.png"}}"#, "link.preview.image"),
    ])
    func refusesBadLinksNamingTheField(link: String, field: String) {
        #expect {
            try Self.table(#"[{"path": "/users/:id", "link": \#(link)}]"#)
        } throws: { error in
            (error as? LinkError)?.code == .invalidRequest && (error as? LinkError)?.details["field"] == .string(field)
        }
    }

    /// `maxClicks` is an integer as JSON Schema counts one: a whole number written as a decimal is taken.
    @Test(arguments: [("5.0", 5), ("1e3", 1000), ("7", 7)])
    func maxClicksWrittenAsAWholeDecimalIsTaken(text: String, count: Int) throws {
        let table = try Self.table(#"[{"path": "/u/:id", "link": {"maxClicks": \#(text)}}]"#)
        #expect(table.routes.first?.link?.maxClicks == count)
    }

    @Test func aProviderTokenAndAValidWindowOfOneInstantAreTaken() throws {
        let table = try Self.table(
            #"""
            [{"path": "/u/:id", "link": {"ios": "https://apps.apple.com/app/id1?p%74=1&ct=x",
              "validFrom": "2026-12-01T00:00:00Z", "validUntil": "2026-12-01T00:00:00Z"}}]
            """#)
        #expect(table.routes.first?.link != nil)
    }

    @Test(arguments: [
        #"{"path": "/.well-known/x"}"#, #"{"path": "/robots.txt"}"#, #"{"path": "/favicon.ico/:id"}"#,
        #"{"path": "/apple-app-site-association"}"#,
        // A case-insensitive route would match the reserved path in any case.
        #"{"path": "/.WELL-KNOWN/x", "caseInsensitive": true}"#, #"{"path": "/Robots.TXT", "caseInsensitive": true}"#,
        #"{"path": "/FAVICON.ICO", "caseInsensitive": true}"#,
        #"{"path": "/Apple-App-Site-Association", "caseInsensitive": true}"#,
    ])
    func reservedPathsAreNotRoutes(route: String) {
        #expect {
            try Self.table("[\(route)]")
        } throws: { error in
            (error as? LinkError)?.code == .invalidPattern
                && (error as? LinkError)?.details["reason"] == "reserved path"
        }
    }

    /// Routes an earlier version accepted and stored are read back (the service must start on them), while the
    /// reserved segments as written were refused by every version.
    @Test func storedLookalikesAreReadBack() throws {
        let lookalikes = try [
            #"{"path": "/apple-app-site-association"}"#, #"{"path": "/Robots.TXT", "caseInsensitive": true}"#,
        ]
        .map { try RouteDefinition(json: try JSONParser.parse(Array($0.utf8))) }
        #expect(try RouteTable().replacingRoutes(from: .api, with: lookalikes, stored: true).table.routes.count == 2)
        #expect { try RouteTable().replacingRoutes(from: .api, with: lookalikes) } throws: {
            ($0 as? LinkError)?.code == .invalidPattern
        }
        let reserved = try RouteDefinition(json: try JSONParser.parse(Array(#"{"path": "/robots.txt"}"#.utf8)))
        #expect { try RouteTable().replacingRoutes(from: .api, with: [reserved], stored: true) } throws: {
            ($0 as? LinkError)?.code == .invalidPattern
        }
    }

    /// A target an earlier version stored with text that is not a URL's loads (the service must start), and is
    /// filled as written; registered now, it is refused.
    @Test(arguments: [
        ("https://d.example.com/a b/{id}", "' ' must be percent-encoded: %20"),
        ("https://d.example.com:abc/a b/{id}", "malformed host or port"),
    ])
    func storedTargetsWithRawTextAreReadBack(target: String, reason: String) throws {
        let definition = try RouteDefinition(
            json: ["path": "/users/:id", "link": ["desktop": .string(target)]])
        let table = try RouteTable().replacingRoutes(from: .api, with: [definition], stored: true).table
        let desktop = try #require(table.routes.first?.link?.desktop)
        let location = try Location("/users/7")
        #expect(
            desktop.render(params: try Pattern("/users/:id").parameters(in: location.segments), location: location)
                == target.replacingOccurrences(of: "{id}", with: "7"))
        #expect { try RouteTable().replacingRoutes(from: .api, with: [definition]) } throws: {
            ($0 as? LinkError)?.details["reason"] == .string(reason)
        }
    }

    /// An App Store target on the host with its trailing dot, with `ct` and no `pt`: an earlier version did not see
    /// the App Store there and stored it. It loads; registered now, it is refused.
    @Test func aStoredCampaignTokenOnTheHostWithItsTrailingDotIsReadBack() throws {
        let definition = try RouteDefinition(
            json: ["path": "/users/:id", "link": ["ios": "https://apps.apple.com./app/id1?ct=x"]])
        let table = try RouteTable().replacingRoutes(from: .api, with: [definition], stored: true).table
        #expect(table.routes.first?.link?.ios?.description == "https://apps.apple.com./app/id1?ct=x")
        #expect { try RouteTable().replacingRoutes(from: .api, with: [definition]) } throws: {
            ($0 as? LinkError)?.details["reason"] == .string(RouteLink.providerTokenReason)
        }
    }

    /// A redirect rule an earlier version stored, whose target the location parser now refuses (a URL without `//`,
    /// user info with a `\`), loads: the service must start. Registered now, it is refused.
    @Test(arguments: ["https:evil.example/{id}", #"https://a\\b@links.example.com/{id}"#])
    func storedRedirectRulesThatNoLongerParseAreReadBack(target: String) throws {
        let definition = try RouteDefinition(
            json: ["path": "/old/:id", "redirect": [["to": .string(target)]]])
        let table = try RouteTable().replacingRoutes(from: .api, with: [definition], stored: true).table
        #expect(table.routes.count == 1)
        #expect { try RouteTable().replacingRoutes(from: .api, with: [definition]) } throws: {
            ($0 as? LinkError)?.code == .invalidRule
        }
    }

    /// Paths that only look like reserved ones: another case, matched case-sensitively; the association file's
    /// name as a first segment of a longer path, which the listener does not serve.
    @Test(arguments: [
        #"{"path": "/Robots.TXT"}"#, #"{"path": "/.Well-Known/x"}"#, #"{"path": "/apple-app-site-association/x"}"#,
        #"{"path": "/robots.txt.html", "caseInsensitive": true}"#,
    ])
    func lookalikesAreRoutes(route: String) throws {
        #expect(try Self.table("[\(route)]").routes.count == 1)
    }

    @Test func campaignTokenIsCutTo40Bytes() {
        let long = String(repeating: "a", count: 39) + "é" + "zz"
        let url = "https://apps.apple.com/app/id1?pt=1&ct=" + PercentCoding.encode(long, allowing: .unreserved) + "#f"
        #expect(
            RouteLink.limitingCampaignToken(url) == "https://apps.apple.com/app/id1?pt=1&ct="
                + String(repeating: "a", count: 39) + "#f")
        #expect(
            RouteLink.limitingCampaignToken("https://apps.apple.com/app/id1?pt=1&ct=short")
                == "https://apps.apple.com/app/id1?pt=1&ct=short")
        #expect(RouteLink.limitingCampaignToken("https://x.com/?ct=" + long) == "https://x.com/?ct=" + long)
        // Found by its decoded name, as the `pt` rule finds it.
        let sixty = String(repeating: "a", count: 60)
        #expect(
            RouteLink.limitingCampaignToken("https://apps.apple.com/app/id1?pt=1&c%74=" + sixty)
                == "https://apps.apple.com/app/id1?pt=1&ct=" + String(repeating: "a", count: 40))
    }
}
