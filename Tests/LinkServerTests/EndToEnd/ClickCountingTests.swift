import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// What a click and an app open count, and under which route (API.md §7 "the link as clicked", step 4; §8): the
/// route clicked, not the one a redirect rule led to; `maxClicks` spent by people and opens, not by bots.
@Suite struct ClickCountingTests {
    /// `/old/:c` sends to `/new/:d` by a redirect rule; each has its own `maxClicks` and `expiredURL`.
    static let movedRoutes: JSONValue = [
        "routes": [
            [
                "path": "/old/:c", "name": "old", "redirect": [["to": "/new/{c}"]],
                "link": ["maxClicks": 2, "expiredURL": "https://www.example.com/expired/{c}"],
            ],
            [
                "path": "/new/:d", "name": "new",
                "link": [
                    "desktop": "https://www.example.com/n/{d}", "maxClicks": 1,
                    "expiredURL": "https://www.example.com/new-expired/{d}",
                ],
            ],
        ]
    ]

    /// §7: "A click, an open and its `linkClick` event count under the route the person clicked (the first match),
    /// not the one a redirect rule led to"; the target is the resolved route's (api-notes "Which route's `link`
    /// applies after a redirect rule").
    @Test func aClickAndAnOpenCountUnderTheRouteClicked() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.request("PUT", "/v1/routes", json: Self.movedRoutes).status == 200)
            let id = try api.subscribeToClicks()
            let click = try server.linksClient().click("/old/x", agent: LinkListenerTests.windows)
            #expect(click.status == 302)
            #expect(click.header("location") == "https://www.example.com/n/x")
            let open = try api.post("/v1/links/opens", ["url": "https://links.example.com/old/y", "platform": "ios"])
            #expect(open.json?["decision"] == "open")
            #expect(open.json?["resolution"]?["route"]?["name"] == "new")
            let old = try api.get("/v1/stats/clicks?route=old")
            #expect(old.json?["clicks"] == 1)
            #expect(old.json?["opens"] == 1)
            #expect(old.json?["routes"] == [["name": "old", "pattern": "/old/:c", "clicks": 1, "opens": 1, "bots": 0]])
            let new = try api.get("/v1/stats/clicks?route=new")
            #expect(new.json?["clicks"] == 0)
            #expect(new.json?["opens"] == 0)
            #expect(new.json?["routes"] == [])
            let events = try api.queuedEvents(id)
            #expect(events.map { $0["location"] } == ["/links/clicks/old", "/links/clicks/old"])
            #expect(events.map { $0["extra"]?["location"] } == ["/old/x", "/old/y"])
            #expect(events.map { $0["extra"]?["via"] } == ["click", "app"])
        }
    }

    /// §7 step 4: the `maxClicks` consumed is the clicked route's: two uses of `/old` (a click, an open) spend its
    /// budget of 2 and leave `/new`'s budget of 1 untouched; the expired answer is `/old`'s `expiredURL`, filled with
    /// `/old`'s parameters (api-notes: "its `{param}`s are the clicked route's").
    @Test func maxClicksOfTheRouteClickedIsTheOneConsumed() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.request("PUT", "/v1/routes", json: Self.movedRoutes).status == 200)
            let links = server.linksClient()
            #expect(try links.click("/old/a", agent: LinkListenerTests.windows).status == 302)
            let open = try api.post(
                "/v1/links/opens", ["url": "https://links.example.com/old/b", "platform": "android"])
            #expect(open.json?["decision"] == "open")
            let spent = try links.click("/old/c", agent: LinkListenerTests.windows)
            #expect(spent.status == 302)
            #expect(spent.header("location") == "https://www.example.com/expired/c")
            // `/new` still has its one click.
            let direct = try links.click("/new/e", agent: LinkListenerTests.windows)
            #expect(direct.header("location") == "https://www.example.com/n/e")
            let after = try links.click("/new/f", agent: LinkListenerTests.windows)
            #expect(after.header("location") == "https://www.example.com/new-expired/f")
        }
    }

    /// §7 step 4: `maxClicks` counts person clicks ("once `maxClicks` person clicks were counted"), every location of
    /// the pattern sharing one budget; api-notes: an app open counts towards it too, and bots see the limit without
    /// adding to it; expired clicks are still counted in the statistics.
    @Test func botsSpendNothingAndEveryLocationOfThePatternSharesOneBudget() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            let route: JSONValue = [
                "path": "/promo/:code", "name": "promo",
                "link": ["maxClicks": 3, "expiredURL": "https://www.example.com/expired?c={code}"],
            ]
            #expect(try api.post("/v1/routes", route).status == 201)
            let links = server.linksClient()
            for agent in [LinkListenerTests.google, LinkListenerTests.slack, LinkListenerTests.google] {
                let bot = try links.click("/promo/a", agent: agent)
                #expect(bot.status == 302, "\(agent)")
                #expect(bot.header("location") == "https://www.example.com/promo/a", "\(agent)")
            }
            // Three uses from two locations and an open: the budget is spent…
            #expect(
                try links.click("/promo/a", agent: LinkListenerTests.windows).header("location")
                    == "https://www.example.com/promo/a")
            #expect(
                try links.click("/promo/b", agent: LinkListenerTests.iPhone).header("location")
                    == "https://apps.apple.com/app/id123456789")
            let open = try api.post("/v1/links/opens", ["url": "https://links.example.com/promo/c", "platform": "ios"])
            #expect(open.json?["decision"] == "open")
            // …for every location of the pattern, people, opens and bots alike.
            for code in ["a", "b", "z"] {
                let late = try links.click("/promo/\(code)", agent: LinkListenerTests.windows)
                #expect(late.header("location") == "https://www.example.com/expired?c=\(code)")
            }
            let lateOpen = try api.post(
                "/v1/links/opens", ["url": "https://links.example.com/promo/y", "platform": "android"])
            #expect(lateOpen.json?["decision"] == "expired")
            #expect(lateOpen.json?["target"] == "https://www.example.com/expired?c=y")
            let lateBot = try links.click("/promo/a", agent: LinkListenerTests.google)
            #expect(lateBot.header("location") == "https://www.example.com/expired?c=a")
            let stats = try api.get("/v1/stats/clicks?route=promo")
            #expect(stats.json?["clicks"] == 5)
            #expect(stats.json?["opens"] == 2)
            #expect(stats.json?["bots"] == 4)
        }
    }

    /// §7: step 3 (no match, an intercepting rule, a loop or the redirect limit) is decided before step 4, so such a
    /// click is answered as no match and spends none of the route's `maxClicks`, as an open does (it was counted on
    /// the route's match first: two blocked clicks expired the link for the first person it resolved for).
    @Test func aClickThatDoesNotResolveSpendsNoneOfMaxClicks() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            let route: JSONValue = [
                "path": "/camp/:x", "name": "camp",
                "redirect": [
                    ["when": ["==": [["var": "params.x"], "block"]], "action": "intercept"],
                    ["when": ["==": [["var": "params.x"], "loop"]], "to": "/camp/loop2"],
                    ["when": ["==": [["var": "params.x"], "loop2"]], "to": "/camp/loop"],
                ],
                "link": [
                    "maxClicks": 1, "desktop": "https://www.example.com/ok/{x}",
                    "expiredURL": "https://www.example.com/expired",
                ],
            ]
            #expect(try api.post("/v1/routes", route).status == 201)
            let links = server.linksClient()
            for x in ["block", "loop", "block"] {
                let refused = try links.click("/camp/\(x)", agent: LinkListenerTests.windows)
                #expect(refused.status == 404, "\(x)")
                #expect(refused.header("location") == nil, "\(x)")
            }
            let blockedOpen = try api.post(
                "/v1/links/opens", ["url": "https://links.example.com/camp/block", "platform": "ios"])
            #expect(blockedOpen.json?["decision"] == "not_found")
            let first = try links.click("/camp/a", agent: LinkListenerTests.windows)
            #expect(first.header("location") == "https://www.example.com/ok/a")
            let second = try links.click("/camp/b", agent: LinkListenerTests.windows)
            #expect(second.header("location") == "https://www.example.com/expired")
            // Refused, they are still clicks on the route matched (§8: "person clicks on matched routes").
            let stats = try api.get("/v1/stats/clicks?route=camp")
            #expect(stats.json?["clicks"] == 5)
            #expect(stats.json?["opens"] == 1)
        }
    }

    /// §8: an expired open answers `target` = the clicked route's `expiredURL`, and api-notes: "its `{param}`s are the
    /// clicked route's" whatever route the redirect rules led to, as a click's are. `/old/:c` leads to `/new/:d`:
    /// the open once filled `{c}` from `/new`'s parameters and answered `…/expired/`.
    @Test func anExpiredOpenFillsExpiredURLWithTheClickedRoutesParameters() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            let api = server.client()
            #expect(try api.request("PUT", "/v1/routes", json: Self.movedRoutes).status == 200)
            for code in ["a", "b"] {
                let open = try api.post(
                    "/v1/links/opens", ["url": .string("https://links.example.com/old/\(code)"), "platform": "ios"])
                #expect(open.json?["decision"] == "open")
            }
            let spent = try api.post("/v1/links/opens", ["url": "https://links.example.com/old/d", "platform": "ios"])
            #expect(spent.status == 200)
            #expect(spent.json?["decision"] == "expired")
            #expect(spent.json?["target"] == "https://www.example.com/expired/d")
            let click = try server.linksClient().click("/old/e", agent: LinkListenerTests.windows)
            #expect(click.header("location") == "https://www.example.com/expired/e")
        }
    }

    /// §8: an open applies expiry as a click does (`validFrom`, `validUntil`), and its `target` is `expiredURL` or
    /// `links.notFoundURL` where that applies, else null: an expired open without an `expiredURL` has none, and an
    /// open that matches nothing has `notFoundURL` when it is set. Expired opens count as opens of their route
    /// (api-notes: "Expired clicks are still counted"); the unmatched one is `unmatched`.
    @Test func anOpenAppliesExpiryAndNamesTheTargetThatApplies() throws {
        try withServer({
            LinkListenerTests.configure(&$0) { $0.links.notFoundURL = "https://www.example.com/404" }
        }) { (server) throws in
            let api = server.client()
            let routes: JSONValue = [
                "routes": [
                    ["path": "/past", "name": "past", "link": ["validUntil": "2020-01-01T00:00:00Z"]],
                    [
                        "path": "/future/:c", "name": "future",
                        "link": [
                            "validFrom": "2099-01-01T00:00:00Z", "expiredURL": "https://www.example.com/soon/{c}",
                        ],
                    ],
                    ["path": "/now", "name": "now"],
                ]
            ]
            #expect(try api.request("PUT", "/v1/routes", json: routes).status == 200)
            func open(_ path: String) throws -> JSONValue? {
                try api.post(
                    "/v1/links/opens", ["url": .string("https://links.example.com" + path), "platform": "ios"]
                ).json
            }
            let past = try open("/past")
            #expect(past?["decision"] == "expired")
            #expect(past?["target"] == .null)
            let future = try open("/future/x")
            #expect(future?["decision"] == "expired")
            #expect(future?["target"] == "https://www.example.com/soon/x")
            let nothing = try open("/nothing")
            #expect(nothing?["decision"] == "not_found")
            #expect(nothing?["target"] == "https://www.example.com/404")
            #expect(nothing?["resolution"] == .null)
            let now = try open("/now")
            #expect(now?["decision"] == "open")
            #expect(now?["target"] == .null)
            let stats = try api.get("/v1/stats/clicks")
            #expect(stats.json?["opens"] == 3)
            #expect(stats.json?["unmatched"] == 1)
        }
    }
}
