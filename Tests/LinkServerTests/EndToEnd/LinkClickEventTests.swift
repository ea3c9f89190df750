import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// The `linkClick` event of a counted click (API.md §7): pattern `/links/clicks/:route` (`route`: the route name, or
/// `-` for no match), `extra` `{"platform", "bot", "location", "target", "decision", "via"}`.
@Suite struct LinkClickEventTests {
    /// §7: an unmatched person click is emitted under the route `-`, with `decision` `not_found`; without
    /// `links.notFoundURL` its `target` is null, with it the target is that URL.
    @Test func anUnmatchedPersonClickIsEmittedUnderTheRouteDash() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            let id = try api.subscribeToClicks()
            #expect(try server.linksClient().click("/nothing/here?x=1", agent: LinkListenerTests.iPhone).status == 404)
            let events = try api.queuedEvents(id)
            #expect(events.count == 1)
            #expect(events.first?["location"] == "/links/clicks/-")
            #expect(
                events.first?["extra"] == [
                    "platform": "ios", "bot": false, "location": "/nothing/here?x=1", "target": nil,
                    "decision": "not_found", "via": "click",
                ])
        }
        try withServer({
            LinkListenerTests.configure(&$0) { $0.links.notFoundURL = "https://www.example.com/404" }
        }) { (server) throws in
            let api = server.client()
            let id = try api.subscribeToClicks()
            let reply = try server.linksClient().click("/nothing", agent: LinkListenerTests.windows)
            #expect(reply.header("location") == "https://www.example.com/404")
            let event = try #require(try api.queuedEvents(id).first)
            #expect(event["location"] == "/links/clicks/-")
            #expect(event["extra"]?["target"] == "https://www.example.com/404")
            #expect(event["extra"]?["decision"] == "not_found")
        }
    }

    /// §7: a preview bot's click is emitted with `bot: "preview"` and `decision: "preview"` (the card has no target).
    @Test func aPreviewBotIsEmittedWithItsKindAndThePreviewDecision() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let id = try api.subscribeToClicks()
            #expect(try server.linksClient().click("/users/42", agent: LinkListenerTests.slack).status == 200)
            let events = try api.queuedEvents(id)
            #expect(events.count == 1)
            #expect(events.first?["location"] == "/links/clicks/user")
            #expect(
                events.first?["extra"] == [
                    "platform": "desktop", "bot": "preview", "location": "/users/42", "target": nil,
                    "decision": "preview", "via": "click",
                ])
        }
    }

    /// §7 step 4: an expired click is emitted with `decision: "expired"` and the `expiredURL` it was sent to, or a
    /// null target for the 410 page.
    @Test func anExpiredClickIsEmittedWithTheExpiredDecision() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            let routes: JSONValue = [
                "routes": [
                    [
                        "path": "/ended/:code", "name": "ended",
                        "link": [
                            "validUntil": "2020-01-01T00:00:00Z",
                            "expiredURL": "https://www.example.com/expired/{code}",
                        ],
                    ],
                    ["path": "/gone", "name": "gone", "link": ["validUntil": "2020-01-01T00:00:00Z"]],
                ]
            ]
            #expect(try api.request("PUT", "/v1/routes", json: routes).status == 200)
            let id = try api.subscribeToClicks()
            let links = server.linksClient()
            #expect(try links.click("/ended/x", agent: LinkListenerTests.windows).status == 302)
            #expect(try links.click("/gone", agent: LinkListenerTests.android).status == 410)
            let events = try api.queuedEvents(id)
            #expect(events.map { $0["location"] } == ["/links/clicks/ended", "/links/clicks/gone"])
            #expect(
                events.map { $0["extra"] } == [
                    [
                        "platform": "desktop", "bot": false, "location": "/ended/x",
                        "target": "https://www.example.com/expired/x", "decision": "expired", "via": "click",
                    ],
                    [
                        "platform": "android", "bot": false, "location": "/gone", "target": nil, "decision": "expired",
                        "via": "click",
                    ],
                ])
        }
    }

    /// §7: every counted click is emitted, whatever its decision: a crawler's (`bot: "crawler"`, the desktop target
    /// it was sent to), a landing page's and an intent page's (the store they lead to, the counted click's token in
    /// the Play referrer). A bot's request that matches nothing is counted in `bots` (§8: "bot requests, matched or
    /// not"), not in `unmatched`, and not emitted.
    @Test func crawlersLandingAndIntentPagesAreEmittedAndAnUnmatchedBotIsOnlyCounted() throws {
        try withServer({ LinkListenerTests.configure(&$0, landing: true) }) { (server) throws in
            let api = server.client()
            #expect(try api.post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let id = try api.subscribeToClicks()
            let links = server.linksClient()
            #expect(try links.click("/users/1", agent: LinkListenerTests.google).status == 302)
            #expect(try links.click("/users/2", agent: LinkListenerTests.iPhone).status == 200)
            #expect(try links.click("/users/3", agent: LinkListenerTests.instagram).status == 200)
            #expect(try links.click("/nothing", agent: LinkListenerTests.slack).status == 404)
            #expect(try links.click("/nothing", agent: LinkListenerTests.google).status == 404)
            let events = try api.queuedEvents(id)
            #expect(events.count == 3)
            #expect(
                events.map { $0["location"] } == ["/links/clicks/user", "/links/clicks/user", "/links/clicks/user"])
            #expect(
                events.first?["extra"] == [
                    "platform": "desktop", "bot": "crawler", "location": "/users/1",
                    "target": "https://www.example.com/u/1", "decision": "redirect", "via": "click",
                ])
            #expect(
                events.dropFirst().first?["extra"] == [
                    "platform": "ios", "bot": false, "location": "/users/2",
                    "target": "https://apps.apple.com/app/id123456789", "decision": "landing", "via": "click",
                ])
            let intent = try #require(events.last?["extra"])
            #expect(intent["decision"] == "intent")
            #expect(intent["platform"] == "android")
            #expect(intent["bot"] == false)
            let target = try #require(intent["target"]?.stringValue)
            #expect(target.hasPrefix("https://play.google.com/store/apps/details?id=com.example.app&referrer="))
            #expect(target.contains("linkserver_token%3D"))
            let stats = try api.get("/v1/stats/clicks")
            #expect(stats.json?["clicks"] == 2)
            #expect(stats.json?["bots"] == 3)
            #expect(stats.json?["unmatched"] == 0)
        }
    }
}
