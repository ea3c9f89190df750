import Foundation
import LinkClient
import Testing

/// What a later service may add to its answers (a value to a closed list: an app open's `decision`, a route's
/// `source` and `sameRoute`; a field to a route or to one of its redirect rules) reaches the app as it is: an app
/// already shipped must not fail the call because the service it talks to is newer (scripts/generate-client opens
/// the answers the generated layer reads).
@Suite struct OpenAnswerTests {
    @Test func anAppOpenDecisionAddedLaterArrivesAsItsOwnValue() async throws {
        let body = #"{"decision":"geo_blocked","target":"https://example.com/unavailable","resolution":null}"#
        let server = CannedServer(response: Self.ok(body))
        let opened = try await server.client().open(URL(string: "https://go.example.com/users/42")!, platform: .ios)
        #expect(opened.decision == LinkOpen.Decision(rawValue: "geo_blocked"))
        #expect(opened.decision != .open && opened.decision != .expired && opened.decision != .notFound)
        #expect(opened.target == "https://example.com/unavailable")
        #expect(opened.resolution == nil)
    }

    @Test func aRouteSourceAndSameRouteAddedLaterArriveAsTheirOwnValues() async throws {
        let server = CannedServer(
            response: Self.ok(#"{"routes":[\#(Self.route(source: "import", sameRoute: "merge"))]}"#))
        let routes = try await server.client().routes()
        #expect(routes.map(\.source) == ["import"])
        #expect(routes.map(\.sameRoute) == ["merge"])
        #expect(routes.map(\.pattern) == ["/users/:id"])
    }

    /// A field the route's answer does not have today, on the route and on a redirect rule (a rule is strict in a
    /// request: the service refuses a field it does not know).
    @Test func fieldsAddedLaterToARouteAndItsRulesAreReadPast() async throws {
        let rule = #"{"when":{"==":[{"var":"params.id"},"0"]},"to":"/users/1","status":308}"#
        let route = Self.route(source: "api", sameRoute: "none", redirect: "[\(rule)]", extra: #","labels":["beta"]"#)
        let server = CannedServer(response: Self.ok(#"{"routes":[\#(route)]}"#))
        let routes = try await server.client().routes()
        #expect(routes.count == 1)
        #expect(
            routes.first?.redirect == [["when": ["==": [["var": "params.id"], "0"]], "to": "/users/1", "status": 308]])
    }

    /// A deferred link's platform is open too: one a later service adds arrives as itself. One the contract does
    /// not list is refused before an app open is sent (400 `invalid_request`, nothing on the wire).
    @Test func aPlatformAddedLaterArrivesAsItselfAndAnUnknownOneIsNotSent() async throws {
        let body =
            #"{"resolution":{"location":"/users/7","path":"/users/7","route":{"name":"user","pattern":"/users/:id"},"#
            + #""params":{"id":"7"},"query":{},"queryItems":[],"destination":null,"presentation":null,"matches":[],"#
            + #""redirects":[]},"clickedAt":"2026-11-30T10:00:00.000Z","platform":"harmony","link":"https://l/users/7"}"#
        let server = CannedServer(response: Self.ok(body))
        let claimed = try await server.client().claimDeferred(token: "t")
        #expect(claimed.platform == AppPlatform(rawValue: "harmony"))
        #expect(claimed.platform != .ios && claimed.platform != .android)
        let refused = try await #require(throws: LinkServiceError.self) {
            try await server.client().open(
                URL(string: "https://l/users/7")!, platform: AppPlatform(rawValue: "harmony"))
        }
        #expect(refused.status == 400 && refused.code == .invalidRequest)
        #expect(server.received.requests(startingWith: "POST /v1/links/opens").isEmpty)
        #expect(server.received.requests(startingWith: "POST /v1/deferred/claim").count == 1)
    }

    private static func route(source: String, sameRoute: String, redirect: String = "[]", extra: String = "") -> String
    {
        #"{"name":"user","pattern":"/users/:id","source":"\#(source)","parent":null,"path":"/users/:id","#
            + #""destination":null,"presentation":null,"sameRoute":"\#(sameRoute)","caseInsensitive":false,"#
            + #""redirect":\#(redirect),"link":null\#(extra)}"#
    }

    private static func ok(_ body: String) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }
}
