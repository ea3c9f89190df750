import LinkCore
import Testing

@testable import LinkServer

@Suite struct RequestBodyTests {
    private func request(_ body: String, contentType: String? = "application/json") -> Request {
        Request(
            method: "POST", target: "/x", headers: contentType.map { ["content-type": $0] } ?? [:],
            body: Array(body.utf8))
    }

    @Test(arguments: [
        ("application/json", true), ("application/json; charset=utf-8", true), ("Application/JSON", true),
        ("application/problem+json", true), ("text/plain", false), ("application/x-www-form-urlencoded", false),
        ("multipart/form-data; boundary=x", false), ("application/json; charset=latin-1", false),
        ("application/json;charset=UTF-8", true), (" application/json ", true), ("\tapplication/json;", true),
        ("APPLICATION/VND.API+JSON", true), ("application/+json", false), ("application/jsonx", false),
        ("application/", false), ("application", false), ("", false), ("application/json5", false),
        ("applicatio\u{0E}/json", false), ("application\u{0F}json", false), ("application/x\u{0B}json", false),
        ("application/vnd+json; charset=\"UTF-8\"", true),
        ("application/x+json;charset=ascii", false), ("é/json", false),
    ])
    func jsonContentTypes(type: String, accepted: Bool) {
        #expect(request("{}", contentType: type).hasJSONContentType == accepted)
    }

    @Test func noContentTypeIsTakenAsJSON() {
        #expect(request("{}", contentType: nil).hasJSONContentType)
    }

    @Test func nestingLimitIs64() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: Never.self) { try request(ok).jsonBody() }
        #expect { try request(deep).jsonBody() } throws: { ($0 as? LinkError)?.code == .invalidJSON }
    }

    @Test(arguments: ["", "{", "nope", "{\"a\":1}x"])
    func invalidBodiesAreInvalidJSON(body: String) {
        #expect { try request(body).jsonBody() } throws: { ($0 as? LinkError)?.code == .invalidJSON }
    }

    @Test func queryItemsFollowTheContract() throws {
        let request = Request(method: "GET", target: "/x?a=1&b=x+y&c&a=2&d=%E6%B8%85&e=1=2")
        let items = try request.queryItems()
        #expect(items.map(\.0) == ["a", "b", "c", "a", "d", "e"])
        #expect(items.map(\.1) == ["1", "x+y", "", "2", "清", "1=2"])
        #expect(try request.queryValue("a") == "2")
    }

    @Test func malformedQueryEscapeIsInvalidURL() {
        #expect { try Request(method: "GET", target: "/x?a=%zz").queryItems() } throws: {
            ($0 as? LinkError)?.code == .invalidURL
        }
    }
}
