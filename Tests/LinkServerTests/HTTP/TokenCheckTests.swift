import LinkCore
import Testing

@testable import LinkServer

@Suite struct TokenCheckTests {
    private func request(_ authorization: String?) -> Request {
        Request(method: "POST", target: "/v1/routes", headers: authorization.map { ["authorization": $0] } ?? [:])
    }

    private func allowed(_ check: TokenCheck, _ auth: String?, _ access: Endpoint.Access) -> Bool {
        (try? check.authorize(request(auth), access: access)) != nil
    }

    @Test func withoutTokensEverythingIsOpen() {
        let check = TokenCheck()
        #expect(allowed(check, nil, .write))
        #expect(allowed(check, nil, .read))
    }

    @Test func adminTokenGuardsWritesOnly() {
        let check = TokenCheck(adminToken: "s3cret")
        #expect(!allowed(check, nil, .write))
        #expect(!allowed(check, "Bearer wrong", .write))
        #expect(!allowed(check, "Bearer s3cre", .write))
        #expect(!allowed(check, "Basic s3cret", .write))
        #expect(allowed(check, "Bearer s3cret", .write))
        #expect(allowed(check, "bearer  s3cret ", .write))
        #expect(allowed(check, nil, .read))
    }

    @Test func readTokenGuardsReadsAndAdminTokenAlsoReads() {
        let check = TokenCheck(adminToken: "admin", readToken: "reader")
        #expect(!allowed(check, nil, .read))
        #expect(allowed(check, "Bearer reader", .read))
        #expect(allowed(check, "Bearer admin", .read))
        #expect(!allowed(check, "Bearer reader", .write))
        #expect(allowed(check, nil, .open))
    }
}
