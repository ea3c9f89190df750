import LinkCore
import Testing

@Suite struct ResolveRequestTests {
    @Test func decodesAURLRequest() throws {
        let request = try ResolveRequest(
            json: ["url": "/users/42", "context": ["loggedIn": true], "current": "/users/7", "redirectLimit": 2])
        guard case .url(let url) = request.target else {
            Issue.record("expected a url")
            return
        }
        #expect(url == "/users/42")
        #expect(request.context == ["loggedIn": true])
        #expect(request.current == "/users/7")
        #expect(request.redirectLimit == 2)
    }

    @Test func decodesANameRequest() throws {
        let request = try ResolveRequest(json: ["name": "user", "params": ["id": "42"], "query": ["tab": "posts"]])
        guard case .name(let named) = request.target else {
            Issue.record("expected a name")
            return
        }
        #expect(named == NamedLocation(name: "user", params: ["id": "42"], query: [QueryItem("tab", "posts")]))
        #expect(request.context == nil)
        #expect(request.current == nil)
        #expect(request.redirectLimit == nil)
    }

    static let invalid: [(JSONValue, String)] = [
        ([:], "url"),
        (["url": "/a", "name": "b"], "name"),
        (["url": "/a", "params": [:]], "params"),
        (["url": 1], "url"),
        (["url": "/a", "current": 1], "current"),
        (["url": "/a", "redirectLimit": -1], "redirectLimit"),
        (["url": "/a", "redirectLimit": 1.5], "redirectLimit"),
        (["url": "/a", "redirectLimit": "2"], "redirectLimit"),
        (["url": "/a", "nope": 1], "nope"),
        (["name": 3], "name"),
        ("text", "body"),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidRequests(json: JSONValue, field: String) {
        let error = #expect(throws: LinkError.self) { try ResolveRequest(json: json) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.details["field"] == .string(field), "\(String(describing: error))")
    }

    @Test func acceptsAWholeDoubleAsLimit() throws {
        #expect(try ResolveRequest(json: ["url": "/a", "redirectLimit": 3.0]).redirectLimit == 3)
        // Huge limits are capped later, never refused: 1e20 is a whole number an Int cannot hold.
        #expect(try ResolveRequest(json: ["url": "/a", "redirectLimit": 1e20]).redirectLimit == Int.max)
        #expect(try ResolveRequest(json: ["url": "/a", "redirectLimit": .int(Int.max)]).redirectLimit == Int.max)
    }
}
