import LinkCore
import Testing

@testable import LinkServer

@Suite struct ErrorEnvelopeTests {
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
    func statusOfEachCode(code: String, status: Int) {
        #expect(ErrorEnvelope.status(of: LinkError.Code(rawValue: code)) == status)
    }

    /// The codes LinkCore defines, the server's status table and the contract's table are one set.
    @Test func everyCodeIsInTheTable() {
        let contract = Set(ErrorEnvelopeTests.table.map(\.0))
        #expect(Set(LinkError.Code.known.map(\.rawValue)) == contract)
        #expect(Set(ErrorEnvelope.statuses.keys.map(\.rawValue)) == contract)
        #expect(LinkError.Code.known.count == contract.count)
    }

    @Test func aCodeOutsideTheContractIsAServerFault() {
        #expect(ErrorEnvelope.status(of: LinkError.Code(rawValue: "brand_new")) == 500)
    }

    @Test func envelopeShape() throws {
        let response = ErrorEnvelope.response(
            for: LinkError(.noMatch, "No route matches /users", details: ["location": "/users"]))
        #expect(response.status == 404)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        let body = try JSONParser.parse(response.body)
        #expect(
            body == [
                "error": ["code": "no_match", "message": "No route matches /users", "details": ["location": "/users"]]
            ])
    }

    /// "Every error has one shape" (§1): an error without details has an empty `details` object.
    @Test func envelopeWithoutDetailsHasAnEmptyDetailsObject() throws {
        let body = try JSONParser.parse(ErrorEnvelope.response(for: ErrorEnvelope.internalError).body)
        #expect(body == ["error": ["code": "internal", "message": "Internal server error", "details": [:]]])
    }
}
