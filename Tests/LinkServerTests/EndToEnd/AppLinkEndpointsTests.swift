import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// The two app endpoints, `POST /v1/deferred/claim` (API.md §9) and `POST /v1/links/opens` (§8), under the token
/// rules of §7: the read token on the API listener, none on the links listener; and `resolution` only for a caller
/// that may read (§7 step 7).
@Suite struct AppLinkEndpointsTests {
    static let open: JSONValue = ["url": "https://links.example.com/users/42", "platform": "ios"]

    /// §7: with `auth.readToken` set, both endpoints on the API listener need it: 401 `unauthorized` without it (and
    /// with a wrong one), served with it.
    @Test func onTheAPIListenerBothNeedTheReadToken() throws {
        try withServer({ LinkListenerTests.configure(&$0) { $0.readToken = "r" } }) { (server) throws in
            let api = server.client()
            #expect(try api.post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            for headers in [[:], ["Authorization": "Bearer wrong"]] {
                let claim = try api.post("/v1/deferred/claim", ["token": "x"], headers: headers)
                #expect(claim.status == 401, "\(headers)")
                #expect(claim.errorCode == "unauthorized", "\(headers)")
                #expect(claim.header("www-authenticate") == "Bearer", "\(headers)")
                let open = try api.post("/v1/links/opens", Self.open, headers: headers)
                #expect(open.status == 401, "\(headers)")
                #expect(open.errorCode == "unauthorized", "\(headers)")
            }
            let reader = ["Authorization": "Bearer r"]
            let claim = try api.post("/v1/deferred/claim", ["token": "x"], headers: reader)
            #expect(claim.status == 404)
            #expect(claim.errorCode == "unknown_token")
            let open = try api.post("/v1/links/opens", Self.open, headers: reader)
            #expect(open.status == 200)
            #expect(open.json?["decision"] == "open")
        }
    }

    /// §7: on the links listener the two endpoints need no token, even with `auth.readToken` set: never 401. A bad
    /// claim is 404 `unknown_token`, a good one 200, an open 200; a wrong token does not turn them away either.
    @Test func onTheLinksListenerNeitherNeedsAToken() throws {
        try withServer({ LinkListenerTests.configure(&$0) { $0.readToken = "r" } }) { (server) throws in
            #expect(
                try server.client().post(
                    "/v1/routes", LinkListenerTests.userRoute, headers: ["Authorization": "Bearer r"]
                )
                .status == 201)
            let links = server.linksClient()
            for headers in [[:], ["Authorization": "Bearer wrong"]] {
                let bad = try links.postToLinks("/v1/deferred/claim", ["token": "x"], headers: headers)
                #expect(bad.status == 404, "\(headers)")
                #expect(bad.errorCode == "unknown_token", "\(headers)")
                let open = try links.postToLinks("/v1/links/opens", Self.open, headers: headers)
                #expect(open.status == 200, "\(headers)")
                #expect(open.json?["decision"] == "open", "\(headers)")
            }
            let click = try links.click("/users/42", agent: LinkListenerTests.android)
            let token = try #require(click.playToken)
            let claim = try links.postToLinks("/v1/deferred/claim", ["token": .string(token)])
            #expect(claim.status == 200)
            #expect(claim.json?["link"] == "https://links.example.com/users/42")
            #expect(claim.json?["platform"] == "android")
        }
    }

    /// An opened `url` is at most as long as a link a click can carry (`server.maxURIBytes` of target, with room for
    /// `https://`, the longest host name and a port): its body may be a megabyte, and the whole location went into
    /// the open's `linkClick` event. A longer one is 400 `invalid_url`, on both listeners, and counts nothing.
    @Test func anOpenedURLIsNoLongerThanALinkAClickCarries() throws {
        try withServer({ LinkListenerTests.configure(&$0) { $0.server.maxURIBytes = 1024 } }) { (server) throws in
            #expect(try server.client().post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let limit = 1024 + 8 + 255 + 6
            let prefix = "https://links.example.com/users/42?q="
            let fits: JSONValue = [
                "url": .string(prefix + String(repeating: "a", count: limit - prefix.utf8.count)), "platform": "ios",
            ]
            let long: JSONValue = [
                "url": .string(prefix + String(repeating: "a", count: limit + 1 - prefix.utf8.count)),
                "platform": "ios",
            ]
            #expect(try server.client().post("/v1/links/opens", fits).json?["decision"] == "open")
            for reply in [
                try server.client().post("/v1/links/opens", long),
                try server.linksClient().postToLinks("/v1/links/opens", long),
            ] {
                #expect(reply.status == 400)
                #expect(reply.errorCode == "invalid_url")
                #expect(reply.json?["error"]?["details"]?["field"] == "url")
                #expect(reply.json?["error"]?["details"]?["max"] == .int(limit))
            }
            server.application.clicks.flush()
            #expect(try server.client().get("/v1/stats/clicks?route=user").json?["opens"] == 1)
        }
    }

    /// §8 `resolution` "as in §7 step 7": with a read token set, an open on the links listener without a token gets
    /// `"resolution": null`; with the read token, or the admin token, it gets the §3 answer.
    @Test func anOpensResolutionNeedsAReadingTokenWhenOneIsSet() throws {
        try withReadTokenLinksServer { (server) throws in
            let links = server.linksClient()
            let anonymous = try links.postToLinks("/v1/links/opens", Self.open)
            #expect(anonymous.status == 200)
            #expect(anonymous.json == ["decision": "open", "target": nil, "resolution": nil])
            for token in ["r", "a"] {
                let open = try links.postToLinks(
                    "/v1/links/opens", Self.open, headers: ["Authorization": "Bearer \(token)"])
                #expect(open.json?["decision"] == "open", "\(token)")
                #expect(open.json?["resolution"]?["route"]?["name"] == "user", "\(token)")
                #expect(open.json?["resolution"]?["params"] == ["id": "42"], "\(token)")
            }
        }
    }

    /// §8 and §7 step 7: with no read token set, every open carries its resolution, on either listener.
    @Test func withoutAReadTokenEveryOpenCarriesItsResolution() throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            for reply in [
                try server.linksClient().postToLinks("/v1/links/opens", Self.open),
                try server.client().post("/v1/links/opens", Self.open),
            ] {
                #expect(reply.status == 200)
                #expect(reply.json?["resolution"]?["route"]?["name"] == "user")
                #expect(reply.json?["resolution"]?["location"] == "/users/42")
            }
        }
    }
}
