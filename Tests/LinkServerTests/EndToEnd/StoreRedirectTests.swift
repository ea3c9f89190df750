import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// A person sent to an app's store (API.md §7 steps 6, §9): the Play referrer on every Play details URL of the app,
/// the App Store campaign token's limit, and the Android in-app browser's intent page.
@Suite struct StoreRedirectTests {
    static func routes(android: String) -> JSONValue {
        ["routes": [["path": "/a/:id", "name": "a", "link": ["android": .string(android)]]]]
    }

    /// The link as clicked for `/a/1`, as it stands form-encoded inside the referrer's value.
    static let linkItem = "linkserver_link%3Dhttps%253A%252F%252Flinks.example.com%252Fa%252F1"

    /// §9: "whenever the target is a Google Play details URL for `links.apps.android.package` (… from `storeURL` or
    /// from `link.android`)": a route's own Play URL without a referrer gets one appended last, with the token and
    /// the link, its other items as they were; the token can be claimed.
    @Test func aRoutesOwnPlayURLGetsTheReferrerAppended() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let routes = Self.routes(android: "https://play.google.com/store/apps/details?id=com.example.app&utm=x")
            #expect(try server.client().request("PUT", "/v1/routes", json: routes).status == 200)
            let reply = try server.linksClient().click("/a/1", agent: LinkListenerTests.android)
            #expect(reply.status == 302)
            let token = try #require(reply.playToken)
            #expect(
                reply.header("location")
                    == "https://play.google.com/store/apps/details?id=com.example.app&utm=x&referrer=linkserver_token%3D"
                    + token + "%26" + Self.linkItem)
            let claim = try server.client().post("/v1/deferred/claim", ["token": .string(token)])
            #expect(claim.status == 200)
            #expect(claim.json?["link"] == "https://links.example.com/a/1")
        }
    }

    /// §9: an existing `referrer` is decoded once, the two items added to its items, and the result set "in the old
    /// one's place"; "Other query items of the store URL stay as they were" (`hl=de` after it).
    @Test func anExistingReferrerIsReplacedInPlaceAndLaterItemsKept() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let routes = Self.routes(
                android: "https://play.google.com/store/apps/details?id=com.example.app&referrer=x&hl=de")
            #expect(try server.client().request("PUT", "/v1/routes", json: routes).status == 200)
            let reply = try server.linksClient().click("/a/1", agent: LinkListenerTests.android)
            let token = try #require(reply.playToken)
            #expect(
                reply.header("location")
                    == "https://play.google.com/store/apps/details?id=com.example.app&referrer=x%26linkserver_token%3D"
                    + token + "%26" + Self.linkItem + "&hl=de")
        }
    }

    /// §9: only a details URL of `links.apps.android.package` gets the referrer: a Play URL for another package is
    /// left as it is, with no token (the click is still counted).
    @Test func aPlayURLForAnotherPackageIsLeftUntouched() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let other = "https://play.google.com/store/apps/details?id=com.other.app&referrer=y"
            #expect(try server.client().request("PUT", "/v1/routes", json: Self.routes(android: other)).status == 200)
            let reply = try server.linksClient().click("/a/1", agent: LinkListenerTests.android)
            #expect(reply.status == 302)
            #expect(reply.header("location") == other)
            #expect(try server.client().get("/v1/stats/clicks?route=a").json?["clicks"] == 1)
        }
    }

    /// §7: "a `ct` longer than 40 bytes once filled in is cut to 40", in the `Location` an iPhone is sent to; a
    /// shorter one is left whole.
    @Test func theAppStoreCampaignTokenIsCutToFortyBytes() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let route: JSONValue = [
                "path": "/c/:id", "name": "c",
                "link": ["ios": "https://apps.apple.com/app/id123456789?pt=118500&ct=user-{id}&mt=8"],
            ]
            #expect(try server.client().post("/v1/routes", route).status == 201)
            let long = String(repeating: "0123456789", count: 6)
            let cut = try server.linksClient().click("/c/\(long)", agent: LinkListenerTests.iPhone)
            #expect(cut.status == 302)
            let kept = "user-" + long.prefix(35)
            #expect(kept.utf8.count == 40)
            #expect(cut.header("location") == "https://apps.apple.com/app/id123456789?pt=118500&ct=\(kept)&mt=8")
            let short = try server.linksClient().click("/c/42", agent: LinkListenerTests.iPhone)
            #expect(short.header("location") == "https://apps.apple.com/app/id123456789?pt=118500&ct=user-42&mt=8")
        }
    }

    /// The cut holds wherever the campaign token comes from: a name written encoded (`c%74`, read as `ct` by the
    /// `pt` rule too), a route's fallback (the iOS target of a link without `ios`), the app's `storeURL`.
    @Test func theCampaignTokenIsCutWhereverItComesFrom() throws {
        let sixty = String(repeating: "a", count: 60)
        let forty = String(repeating: "a", count: 40)
        try withServer({
            LinkListenerTests.configure(&$0)
            $0.links.ios?.storeURL = try! LinksSettings.iosApp(
                appIDs: ["ABCDE12345.com.example.app"], scheme: nil,
                storeURL: "https://apps.apple.com/app/id123456789?pt=1&ct=" + sixty, landingPage: nil,
                webcredentials: nil
            ).storeURL
        }) { (server) throws in
            let routes: [JSONValue] = [
                ["path": "/encoded/:id", "link": ["ios": "https://apps.apple.com/app/id123456789?pt=1&c%74={id}"]],
                ["path": "/fallback/:id", "link": ["fallback": "https://apps.apple.com/app/id123456789?pt=1&ct={id}"]],
                ["path": "/plain/:id"],
            ]
            for route in routes { #expect(try server.client().post("/v1/routes", route).status == 201) }
            // A fallback on the App Store with a campaign but no provider is refused as an `ios` target is.
            let refused = try server.client().post(
                "/v1/routes",
                ["path": "/nopt/:id", "link": ["fallback": "https://apps.apple.com/app/id123456789?ct={id}"]])
            #expect(refused.status == 400)
            #expect(refused.json?["error"]?["details"]?["field"] == "link.fallback")
            // Beside an `ios` target, the fallback is no iOS target: it is not held to the rule.
            let beside = try server.client().post(
                "/v1/routes",
                [
                    "path": "/beside/:id",
                    "link": [
                        "ios": "https://apps.apple.com/app/id123456789",
                        "fallback": "https://apps.apple.com/app/id1?ct=x",
                    ],
                ])
            #expect(beside.status == 201)
            for path in ["/encoded/", "/fallback/", "/plain/"] {
                let reply = try server.linksClient().click(path + sixty, agent: LinkListenerTests.iPhone)
                #expect(reply.status == 302, "\(path)")
                #expect(
                    reply.header("location") == "https://apps.apple.com/app/id123456789?pt=1&ct=" + forty, "\(path)")
            }
        }
    }

    /// §7 step 6: an Android person in an in-app browser, bound for Google Play, gets a 200 page whose button opens
    /// `intent://<host><location>#Intent;scheme=https;package=<package>;S.browser_fallback_url=<the store URL with
    /// §9's referrer, percent-encoded>;end`; the token in it can be claimed, and "Such a page is a counted click".
    @Test func theIntentPageCarriesTheWholeFallbackURLAndIsACountedClick() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let page = try server.linksClient().click("/users/42", agent: LinkListenerTests.instagram)
            #expect(page.status == 200)
            #expect(page.header("content-type") == "text/html; charset=utf-8")
            let prefix =
                "intent://links.example.com/users/42#Intent;scheme=https;package=com.example.app;S.browser_fallback_url="
            let start = try #require(page.text.range(of: prefix))
            let rest = page.text[start.upperBound...]
            let end = try #require(rest.range(of: ";end"))
            let encoded = String(rest[..<end.lowerBound])
            let fallback = try #require(URLEncoding.decoded(Substring(encoded)))
            let referrer = try #require(PlayReferrer.queryValue("referrer", in: fallback))
            let token = try #require(PlayReferrer.queryValue("linkserver_token", in: "?" + referrer))
            let store =
                "https://play.google.com/store/apps/details?id=com.example.app&referrer=utm_source%3Dmail"
                + "%26linkserver_token%3D" + token
                + "%26linkserver_link%3Dhttps%253A%252F%252Flinks.example.com%252Fusers%252F42"
            #expect(fallback == store)
            #expect(encoded == URLEncoding.component(store))
            #expect(!encoded.contains("&") && !encoded.contains("?") && !encoded.contains("/"))
            // The page also goes to the store URL itself.
            #expect(page.text.contains("},1500);"))
            #expect(page.text.contains(#"href="\#(store.replacingOccurrences(of: "&", with: "&amp;"))""#))
            let claim = try server.client().post("/v1/deferred/claim", ["token": .string(token)])
            #expect(claim.status == 200)
            #expect(claim.json?["platform"] == "android")
            let stats = try server.client().get("/v1/stats/clicks?route=user")
            #expect(stats.json?["clicks"] == 1)
            #expect(stats.json?["byPlatform"] == ["ios": 0, "android": 1, "desktop": 0])
        }
    }
}
