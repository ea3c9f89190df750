import Testing

@testable import LinkServer

@Suite struct RequestHeadersTests {
    @Test func eachFieldIsTheSlotOfItsName() {
        #expect(RequestHeaders.Field.allCases.count == RequestHeaders.names.count)
        for field in RequestHeaders.Field.allCases {
            var headers = RequestHeaders()
            headers[RequestHeaders.names[field.rawValue]] = "v"
            #expect(headers[field] == "v")
        }
        let spelled: [(RequestHeaders.Field, String)] = [
            (.contentType, "content-type"), (.requestID, "x-request-id"), (.host, "host"),
            (.userAgent, "user-agent"), (.acceptLanguage, "accept-language"), (.purpose, "purpose"),
        ]
        for (field, name) in spelled { #expect(RequestHeaders.names[field.rawValue] == name) }
    }

    @Test func namesAreReadInAnyCase() {
        let headers: RequestHeaders = ["User-Agent": "a", "accept": "b", "X-Unknown": "c"]
        #expect(headers["user-agent"] == "a")
        #expect(headers["ACCEPT"] == "b")
        #expect(headers["x-unknown"] == nil)
    }

    static let hosts: [(header: String?, host: String)] = [
        (nil, ""),
        ("", ""),
        ("Example.COM", "example.com"),
        ("  example.com:8081\t", "example.com"),
        ("[::1]:8081", "::1"),
        ("[::1", "[::1"),
        ("a:b:c", "a:b"),
        ("exämple.com:80", "exämple.com"),
        ("ex:\u{301}", "ex:\u{301}"),
    ]

    @Test(arguments: hosts)
    func hostNameWithoutPort(_ header: String?, _ host: String) {
        #expect(LinksDispatcher.hostName(header) == host)
    }
}
