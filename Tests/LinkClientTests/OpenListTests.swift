import Foundation
import LinkClient
import Testing

/// Values a later service may add to a closed list of its answers (an app open's `decision`, a route's `source`
/// and `sameRoute`) reach the app as they are: an app already shipped must not fail the call because the service
/// it talks to is newer (scripts/generate-client opens the lists the generated layer reads).
@Suite struct OpenListTests {
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
        let route =
            #"{"name":"user","pattern":"/users/:id","source":"import","parent":null,"path":"/users/:id","#
            + #""destination":null,"presentation":null,"sameRoute":"merge","caseInsensitive":false,"redirect":[],"#
            + #""link":null}"#
        let server = CannedServer(response: Self.ok(#"{"routes":[\#(route)]}"#))
        let routes = try await server.client().routes()
        #expect(routes.map(\.source) == ["import"])
        #expect(routes.map(\.sameRoute) == ["merge"])
        #expect(routes.map(\.pattern) == ["/users/:id"])
    }

    private static func ok(_ body: String) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }
}
