import LinkCore
import Testing

@testable import LinkServer

@Suite struct HTTPErrorTests {
    /// API.md §1, row by row.
    static let table: [(String, Int)] = [
        ("invalid_json", 400), ("invalid_request", 400), ("invalid_url", 400), ("invalid_pattern", 400),
        ("invalid_rule", 400), ("missing_params", 400), ("unexpected_params", 400), ("unauthorized", 401),
        ("intercepted", 403), ("not_found", 404), ("no_match", 404), ("unknown_name", 404),
        ("subscription_not_found", 404), ("method_not_allowed", 405), ("route_conflict", 409),
        ("name_conflict", 409), ("resource_exists", 409), ("read_only", 409), ("revision_mismatch", 412),
        ("payload_too_large", 413), ("uri_too_long", 414), ("unsupported_media_type", 415), ("rule_error", 422),
        ("too_many_subscriptions", 429), ("internal", 500), ("redirect_loop", 508), ("redirect_limit", 508),
        ("association_too_large", 422), ("rate_limited", 429), ("unknown_token", 404), ("not_current", 404),
        ("unavailable", 503), ("not_implemented", 501),
    ]

    @Test(arguments: table)
    func statusOfEachCode(code: String, status: Int) throws {
        let parsed = try #require(LinkError.Code(rawValue: code))
        #expect(HTTPError.status(of: parsed) == status)
    }

    @Test func everyCodeIsInTheTable() {
        #expect(Set(LinkError.Code.allCases.map(\.rawValue)) == Set(HTTPErrorTests.table.map(\.0)))
    }

    @Test func envelopeShape() throws {
        let response = HTTPError.response(
            for: LinkError(.noMatch, "No route matches /users", details: ["location": "/users"]))
        #expect(response.status == 404)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        let body = try JSONParser.parse(response.body)
        #expect(
            body == [
                "error": ["code": "no_match", "message": "No route matches /users", "details": ["location": "/users"]]
            ])
    }

    @Test func envelopeWithoutDetailsOmitsThem() throws {
        let body = try JSONParser.parse(HTTPError.response(for: HTTPError.internalError).body)
        #expect(body["error"]?["details"] == nil)
        #expect(body["error"]?["message"] == "Internal server error")
    }
}
