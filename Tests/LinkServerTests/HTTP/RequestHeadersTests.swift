import LinkTestSupport
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

    /// The byte-level lookup of each header libmicrohttpd hands over knows every name of ``RequestHeaders/names``,
    /// in any case, and nothing else.
    /// Every field set, replaced and removed in a scrambled order reads back what a dictionary holds.
    @Test func fieldsSetReplacedAndRemovedReadBackLikeADictionary() {
        var generator = SplitMix64(seed: 0x4EAD_E25)
        for _ in 0..<200 {
            var headers = RequestHeaders()
            var expected: [RequestHeaders.Field: String] = [:]
            for step in 0..<40 {
                let field = RequestHeaders.Field.allCases.randomElement(using: &generator)!
                let value: String? = Bool.random(using: &generator) ? nil : "value \(step)"
                headers[field] = value
                expected[field] = value
                for each in RequestHeaders.Field.allCases { #expect(headers[each] == expected[each]) }
            }
        }
    }

    @Test func rawNamesAreFoundInAnyCase() {
        func field(_ name: String) -> RequestHeaders.Field? {
            var name = name
            return name.withUTF8 { RequestHeaders.field(named: UnsafeRawBufferPointer($0)) }
        }
        for known in RequestHeaders.Field.allCases {
            let name = RequestHeaders.names[known.rawValue]
            #expect(field(name) == known)
            #expect(field(name.uppercased()) == known)
            #expect(
                field(
                    String(
                        name.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element }))
                    == known)
            // One byte off anywhere, or one byte more or less: not that field.
            for index in name.indices {
                var wrong = name
                wrong.replaceSubrange(index...index, with: "_")
                #expect(field(wrong) == nil)
            }
            #expect(field(name + "s") == nil)
            #expect(field(String(name.dropLast())) == nil)
        }
        #expect(field("") == nil)
        #expect(field("x-unknown") == nil)
        #expect(field("hosu") == nil)
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
        ("[::1]", "::1"),
        // A port is digits: anything else names no host (it can match no entry of links.hosts).
        ("a:b:c", ""),
        ("links.example.com:abc", ""),
        ("links.example.com:", "links.example.com"),
        ("[::1]x", ""),
        ("[::1]:80x", ""),
        ("exämple.com:80", "exämple.com"),
        ("exämple.com:8x", ""),
        // Past TCP's ports (leading zeros aside).
        ("links.example.com:65535", "links.example.com"),
        ("links.example.com:99999", ""),
        ("links.example.com:65536", ""),
        ("links.example.com:000443", "links.example.com"),
        ("links.example.com:0000000000000065536", ""),
        ("[::1]:70000", ""),
        ("exämple.com:70000", ""),
        ("[::1]:70000ä", ""),
        ("ex:\u{301}", "ex:\u{301}"),
    ]

    @Test(arguments: hosts)
    func hostNameWithoutPort(_ header: String?, _ host: String) {
        #expect(LinksDispatcher.hostName(header) == host)
    }
}
