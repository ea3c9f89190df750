import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// Redirect rules read `context.click` (API.md §7 step 3: `{"platform", "bot", "language", "userAgent", "referrer",
/// "via": "click"}`; §8: an open has `via: "app"`, `bot: false`, `userAgent` and `referrer` null). Each rule sends
/// the click to its own `/to/…` location, so where a click went tells which rule held.
@Suite struct ClickContextTests {
    static func rule(_ field: String, _ value: JSONValue, to: String) -> JSONValue {
        ["when": ["==": [["var": .string("context.click." + field)], value]], "to": .string(to)]
    }

    static let routes: JSONValue = [
        "routes": [
            ["path": "/to/:what", "name": "to"],
            ["path": "/lang", "name": "lang", "redirect": [rule("language", "de-CH", to: "/to/german")]],
            [
                "path": "/bot", "name": "bot",
                "redirect": [rule("bot", "crawler", to: "/to/crawler"), rule("bot", false, to: "/to/person")],
            ],
            ["path": "/via", "name": "via", "redirect": [rule("via", "app", to: "/to/app")]],
            [
                "path": "/agent", "name": "agent",
                "redirect": [rule("userAgent", nil, to: "/to/no-agent"), rule("referrer", nil, to: "/to/no-referrer")],
            ],
            ["path": "/referrer", "name": "referrer", "redirect": [rule("referrer", nil, to: "/to/no-referrer")]],
            [
                "path": "/platform", "name": "platform",
                "redirect": [rule("platform", "android", to: "/to/android"), rule("platform", "ios", to: "/to/ios")],
            ],
        ]
    ]

    /// Where a person's (or bot's) click on `path` was sent: `links.webURL` filled with the resolved location.
    static func sent(_ reply: HTTPClient.Reply) -> String? {
        reply.header("location").map { $0.replacingOccurrences(of: "https://www.example.com", with: "") }
    }

    /// §7 step 3: `language` is the first tag of `Accept-Language`, or null without one.
    @Test func aRuleOnTheLanguage() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            #expect(try server.client().request("PUT", "/v1/routes", json: Self.routes).status == 200)
            let links = server.linksClient()
            let german = try links.click(
                "/lang", agent: LinkListenerTests.windows, headers: ["Accept-Language": "de-CH,de;q=0.9,en;q=0.8"])
            #expect(Self.sent(german) == "/to/german")
            let english = try links.click(
                "/lang", agent: LinkListenerTests.windows, headers: ["Accept-Language": "en-GB, de-CH;q=0.5"])
            #expect(Self.sent(english) == "/lang")
            #expect(Self.sent(try links.click("/lang", agent: LinkListenerTests.windows)) == "/lang")
        }
    }

    /// §7 step 3: `bot` is `"crawler"`, `"preview"` or `false`.
    @Test func aRuleOnTheBot() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            #expect(try server.client().request("PUT", "/v1/routes", json: Self.routes).status == 200)
            let links = server.linksClient()
            #expect(Self.sent(try links.click("/bot", agent: LinkListenerTests.google)) == "/to/crawler")
            #expect(Self.sent(try links.click("/bot", agent: LinkListenerTests.windows)) == "/to/person")
            // A preview bot is neither: without any preview it gets the desktop target of the route itself.
            #expect(Self.sent(try links.click("/bot", agent: LinkListenerTests.slack)) == "/bot")
        }
    }

    /// §7 step 3 and §8: a click's `via` is `"click"`, an open's `"app"`.
    @Test func aRuleOnVia() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.request("PUT", "/v1/routes", json: Self.routes).status == 200)
            #expect(Self.sent(try server.linksClient().click("/via", agent: LinkListenerTests.windows)) == "/via")
            let open = try api.post("/v1/links/opens", ["url": "https://links.example.com/via", "platform": "ios"])
            #expect(open.json?["decision"] == "open")
            #expect(open.json?["resolution"]?["location"] == "/to/app")
            #expect(open.json?["resolution"]?["route"]?["name"] == "to")
        }
    }

    /// §8: an open has `userAgent` and `referrer` null; a click has its `User-Agent` and `Referer`.
    @Test func anOpenHasNoUserAgentNorReferrer() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.request("PUT", "/v1/routes", json: Self.routes).status == 200)
            let open = try api.post(
                "/v1/links/opens", ["url": "https://links.example.com/agent", "platform": "android"])
            #expect(open.json?["resolution"]?["location"] == "/to/no-agent")
            let links = server.linksClient()
            // A click with an agent and no `Referer`: the second rule; with both, neither.
            #expect(Self.sent(try links.click("/agent", agent: LinkListenerTests.windows)) == "/to/no-referrer")
            let referred = try links.click(
                "/agent", agent: LinkListenerTests.windows, headers: ["Referer": "https://mail.example.com/"])
            #expect(Self.sent(referred) == "/agent")
        }
    }

    /// §8: an open resolves as a click with `bot: false`, `referrer` null (each read by a rule of its own, so one
    /// cannot hide the other) and the `platform` its body names.
    @Test func anOpenIsAPersonWithoutAReferrerOnThePlatformItNames() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.request("PUT", "/v1/routes", json: Self.routes).status == 200)
            func opened(_ path: String, _ platform: String) throws -> JSONValue? {
                try api.post(
                    "/v1/links/opens",
                    ["url": .string("https://links.example.com" + path), "platform": .string(platform)]
                ).json?["resolution"]?["location"]
            }
            #expect(try opened("/referrer", "ios") == "/to/no-referrer")
            #expect(try opened("/bot", "ios") == "/to/person")
            #expect(try opened("/platform", "android") == "/to/android")
            #expect(try opened("/platform", "ios") == "/to/ios")
            // A click with a `Referer` is not sent there: the rule reads the header.
            let referred = try server.linksClient().click(
                "/referrer", agent: LinkListenerTests.windows, headers: ["Referer": "https://mail.example.com/"])
            #expect(Self.sent(referred) == "/referrer")
        }
    }
}
