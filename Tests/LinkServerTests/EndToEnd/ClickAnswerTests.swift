import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// What the links listener answers a click with (API.md §7): the JSON decision's `resolution` (step 7), prefetches
/// (step 2), and the operations endpoints, which are never served there.
@Suite struct ClickAnswerTests {
    static let json = ["Accept": "application/json"]

    /// §7 step 7: with no read token set, the JSON decision carries `resolution` (the §3 answer), without any token.
    @Test func withoutAReadTokenTheJSONDecisionCarriesTheResolution() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let reply = try server.linksClient().click(
                "/users/42", agent: LinkListenerTests.windows, headers: Self.json)
            #expect(reply.status == 200)
            #expect(reply.json?["decision"] == "redirect")
            #expect(reply.json?["resolution"]?["route"]?["name"] == "user")
            #expect(reply.json?["resolution"]?["location"] == "/users/42")
            // No match: the key is there, `null`.
            let missing = try server.linksClient().click(
                "/nothing", agent: LinkListenerTests.windows, headers: Self.json)
            #expect(missing.json?["decision"] == "not_found")
            #expect(missing.json?["resolution"] == .null)
        }
    }

    /// §7 step 7: with a read token set, the admin token adds `resolution` as the read token does; no token, or a
    /// wrong one, leaves the key out.
    @Test func withAReadTokenTheAdminTokenAlsoAddsTheResolution() throws {
        try withReadTokenLinksServer { (server) throws in
            let links = server.linksClient()
            for token in ["a", "r"] {
                let reply = try links.click(
                    "/users/42", agent: LinkListenerTests.windows,
                    headers: Self.json.merging(["Authorization": "Bearer \(token)"]) { $1 })
                #expect(reply.json?["resolution"]?["route"]?["name"] == "user", "\(token)")
            }
            for headers in [Self.json, Self.json.merging(["Authorization": "Bearer wrong"]) { $1 }] {
                let reply = try links.click("/users/42", agent: LinkListenerTests.windows, headers: headers)
                #expect(reply.status == 200, "\(headers)")
                #expect(reply.json?["decision"] == "redirect", "\(headers)")
                #expect(reply.json?["resolution"] == nil, "\(headers)")
            }
        }
    }

    /// §7: "The `/v1` API and the operations endpoints are never served there": `/metrics`, `/healthz`, `/readyz` and
    /// `/openapi.json` on the links listener are clicks that match nothing (a 404 page, counted as unmatched), never
    /// the metrics text, the health body or the OpenAPI document.
    @Test(arguments: ["/metrics", "/healthz", "/readyz", "/openapi.json"])
    func operationsEndpointsAreClicksOnTheLinksListener(path: String) throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let links = server.linksClient()
            let page = try links.click(path, agent: LinkListenerTests.windows)
            #expect(page.status == 404)
            #expect(page.header("content-type") == "text/html; charset=utf-8")
            #expect(page.header("cache-control") == "no-store")
            #expect(page.header("x-robots-tag") == "noindex")
            #expect(!page.text.contains("linkserver_"))
            #expect(!page.text.contains(#""status""#))
            #expect(!page.text.contains("openapi"))
            // Asked for JSON: the click decision, not the endpoint's body.
            let asJSON = try links.click(path, agent: LinkListenerTests.windows, headers: Self.json)
            #expect(asJSON.status == 200)
            #expect(
                asJSON.json == [
                    "decision": "not_found", "status": 404, "target": nil, "platform": "desktop", "bot": false,
                    "resolution": nil,
                ])
            #expect(try server.client().get("/v1/stats/clicks").json?["unmatched"] == 1)
        }
    }

    /// §7 step 2: a request with `Sec-Purpose: prefetch` or `Purpose: prefetch` is answered as usual but never
    /// counted and creates no token: an Android person's prefetch gets the 302 to Play whose referrer names the link
    /// (api-notes "The Play referrer of an uncounted answer") but carries no `linkserver_token`; nothing is counted
    /// or emitted.
    @Test(arguments: ["Sec-Purpose", "Purpose"])
    func aPrefetchIsAnsweredButNeverCountedAndGetsNoToken(header: String) throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let subscription = try api.post(
                "/v1/events/subscriptions", ["events": [["name": "linkClick"]]])
            let id = try #require(subscription.json?["id"]?.stringValue)
            let links = server.linksClient()
            let android = try links.click("/users/42", agent: LinkListenerTests.android, headers: [header: "prefetch"])
            #expect(android.status == 302)
            let location = try #require(android.header("location"))
            #expect(
                location
                    == "https://play.google.com/store/apps/details?id=com.example.app&referrer=utm_source%3Dmail"
                    + "%26linkserver_link%3Dhttps%253A%252F%252Flinks.example.com%252Fusers%252F42")
            #expect(android.playToken == nil)
            #expect(android.header("cache-control") == "no-store")
            let desktop = try links.click("/users/42", agent: LinkListenerTests.windows, headers: [header: "prefetch"])
            #expect(desktop.status == 302)
            #expect(desktop.header("location") == "https://www.example.com/u/42")
            let bot = try links.click("/users/42", agent: LinkListenerTests.slack, headers: [header: "prefetch"])
            #expect(bot.status == 200)
            let stats = try api.get("/v1/stats/clicks")
            #expect(stats.json?["clicks"] == 0)
            #expect(stats.json?["bots"] == 0)
            #expect(stats.json?["unmatched"] == 0)
            #expect(stats.json?["byPlatform"] == ["ios": 0, "android": 0, "desktop": 0])
            let events = try api.get("/v1/events/subscriptions/\(id)?after=0&wait=0")
            #expect(events.json?["events"] == [])
        }
    }

    /// §7 step 2 and §9: an iPhone's prefetch of a link bound for the App Store with landing pages gets the landing
    /// page, whose copied link carries no `lst` token, and is not counted.
    @Test func aPrefetchedLandingPageCopiesTheLinkWithoutAToken() throws {
        try withServer({ LinkListenerTests.configure(&$0, landing: true) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let page = try server.linksClient().click(
                "/users/42", agent: LinkListenerTests.iPhone, headers: ["Sec-Purpose": "prefetch"])
            #expect(page.status == 200)
            #expect(page.text.contains("navigator.clipboard.writeText"))
            #expect(page.text.contains(#""https://links.example.com/users/42""#))
            #expect(!page.text.contains("lst="))
            #expect(try server.client().get("/v1/stats/clicks").json?["clicks"] == 0)
        }
    }

    /// The Play URL an uncounted Android answer sends to: the link in the referrer, no `linkserver_token`.
    static let playWithoutToken =
        "https://play.google.com/store/apps/details?id=com.example.app&referrer=utm_source%3Dmail"
        + "%26linkserver_link%3Dhttps%253A%252F%252Flinks.example.com%252Fusers%252F42"

    /// §7 step 7: the JSON decision names the page a person would get, `landing` (an iPhone bound for the App Store
    /// with landing pages) and `intent` (an Android in-app browser, with the app's scheme), with its status and the
    /// store it leads to; like every JSON decision it is uncounted and makes no token.
    @Test func theJSONDecisionNamesTheLandingAndIntentPagesWithoutAToken() throws {
        try withServer({ LinkListenerTests.configure(&$0, landing: true) }) { (server) throws in
            let api = server.client()
            #expect(try api.post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let links = server.linksClient()
            let landing = try links.click("/users/42", agent: LinkListenerTests.iPhone, headers: Self.json)
            #expect(landing.status == 200)
            #expect(landing.json?["decision"] == "landing")
            #expect(landing.json?["status"] == 200)
            #expect(landing.json?["target"] == "https://apps.apple.com/app/id123456789")
            #expect(landing.json?["platform"] == "ios")
            #expect(landing.json?["bot"] == false)
            let intent = try links.click("/users/42", agent: LinkListenerTests.instagram, headers: Self.json)
            #expect(intent.json?["decision"] == "intent")
            #expect(intent.json?["status"] == 200)
            #expect(intent.json?["target"] == .string(Self.playWithoutToken))
            #expect(intent.json?["platform"] == "android")
            let android = try links.click("/users/42", agent: LinkListenerTests.android, headers: Self.json)
            #expect(android.json?["decision"] == "redirect")
            #expect(android.json?["status"] == 302)
            #expect(android.json?["target"] == .string(Self.playWithoutToken))
            #expect(try server.application.store.countDeferredTokens() == 0)
            let stats = try api.get("/v1/stats/clicks")
            #expect(stats.json?["clicks"] == 0)
            #expect(stats.json?["byPlatform"] == ["ios": 0, "android": 0, "desktop": 0])
        }
    }

    /// §7: "Every click answer carries `Cache-Control: no-store` and `X-Robots-Tag: noindex`": each kind of page and
    /// redirect a click can get (each recognised by what only it holds).
    @Test func everyKindOfClickAnswerIsNeitherStoredNorIndexed() throws {
        try withServer({ LinkListenerTests.configure(&$0, landing: true) }) { (server) throws in
            let api = server.client()
            #expect(try api.post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            #expect(
                try api.post("/v1/routes", ["path": "/old", "link": ["validUntil": "2020-01-01T00:00:00Z"]]).status
                    == 201)
            let links = server.linksClient()
            let cases: [(name: String, path: String, agent: String, status: Int, holds: String)] = [
                ("redirect", "/users/42", LinkListenerTests.windows, 302, ""),
                ("landing page", "/users/42", LinkListenerTests.iPhone, 200, "apple-itunes-app"),
                ("intent page", "/users/42", LinkListenerTests.instagram, 200, "intent://"),
                ("platform check", "/users/42", LinkListenerTests.macSafari, 200, "maxTouchPoints"),
                ("preview card", "/users/42", LinkListenerTests.slack, 200, "og:title"),
                ("expired page", "/old", LinkListenerTests.windows, 410, ""),
                ("not found page", "/nothing", LinkListenerTests.windows, 404, ""),
            ]
            for answer in cases {
                let reply = try links.click(answer.path, agent: answer.agent)
                #expect(reply.status == answer.status, "\(answer.name)")
                #expect(answer.holds.isEmpty || reply.text.contains(answer.holds), "\(answer.name)")
                #expect(reply.header("cache-control") == "no-store", "\(answer.name)")
                #expect(reply.header("x-robots-tag") == "noindex", "\(answer.name)")
            }
        }
    }

    /// §7: `links.redirectStatus` is the status of every redirect the links listener sends: a route's target, the
    /// stores, `expiredURL` and `links.notFoundURL`.
    @Test func everyRedirectUsesTheRedirectStatus() throws {
        try withServer({
            LinkListenerTests.configure(&$0) {
                $0.links.redirectStatus = 308
                $0.links.notFoundURL = "https://www.example.com/404"
            }
        }) { (server) throws in
            let api = server.client()
            #expect(try api.post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let promo: JSONValue = [
                "path": "/promo/:code",
                "link": ["maxClicks": 1, "expiredURL": "https://www.example.com/expired/{code}"],
            ]
            #expect(try api.post("/v1/routes", promo).status == 201)
            let links = server.linksClient()
            let cases: [(path: String, agent: String, location: String)] = [
                ("/users/42", LinkListenerTests.windows, "https://www.example.com/u/42"),
                ("/users/42", LinkListenerTests.iPhone, "https://apps.apple.com/app/id123456789"),
                ("/promo/x", LinkListenerTests.windows, "https://www.example.com/promo/x"),
                ("/promo/x", LinkListenerTests.windows, "https://www.example.com/expired/x"),
                ("/nothing", LinkListenerTests.windows, "https://www.example.com/404"),
            ]
            for (path, agent, location) in cases {
                let reply = try links.click(path, agent: agent)
                #expect(reply.status == 308, "\(location)")
                #expect(reply.header("location") == location)
            }
            let play = try links.click("/users/42", agent: LinkListenerTests.android)
            #expect(play.status == 308)
            #expect(play.playToken != nil)
        }
    }
}
