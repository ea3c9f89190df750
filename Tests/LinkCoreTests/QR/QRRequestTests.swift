import Testing

@testable import LinkCore

/// Parameter validation of `GET /v1/qr` (API.md §10).
@Suite struct QRRequestTests {
    /// Splits `a=1&b=2` into decoded items, as the server does.
    func items(_ query: String) throws -> [(String, String)] {
        try Query(parsing: query).items.map { ($0.name, $0.value) }
    }

    @Test func defaults() throws {
        let request = try QRRequest(query: items("url=https%3A%2F%2Fexample.com%2Fa"), linkHost: nil)
        #expect(request == QRRequest(url: "https://example.com/a", format: .svg, size: 512, margin: 4))
        #expect(request.errorCorrection == .medium)
    }

    static let accepted: [(query: String, linkHost: String?, expected: QRRequest)] = [
        (
            "url=https://Example.com/Users/42?tab=Posts&format=png&size=64&margin=0&ecc=L", nil,
            QRRequest(
                url: "https://Example.com/Users/42?tab=Posts", format: .png, size: 64, margin: 0, errorCorrection: .low)
        ),
        (
            "url=https%3A%2F%2FExample.com%2FUsers%2F42%3Ftab%3DPosts&size=2048&margin=16&ecc=H", nil,
            QRRequest(url: "https://Example.com/Users/42?tab=Posts", size: 2048, margin: 16, errorCorrection: .high)
        ),
        (
            "url=http%3A%2F%2Fx.io%2F%25E6%25B8%2585&ecc=Q&format=svg", nil,
            QRRequest(url: "http://x.io/%E6%B8%85", errorCorrection: .quartile)
        ),
        ("url=HTTPS%3A%2F%2Fx.io", nil, QRRequest(url: "HTTPS://x.io")),
        ("url=https%3A%2F%2Fx.io%2F%E6%B8%85%23top", nil, QRRequest(url: "https://x.io/清#top")),
        (
            "url=%2Fusers%2F42%3Ftab%3Dposts", "links.example.com",
            QRRequest(url: "https://links.example.com/users/42?tab=posts")
        ),
        ("url=/&size=0100", "l.io", QRRequest(url: "https://l.io/", size: 100)),
        ("url=/a&margin=1&margin=2&unknown=x", "l.io", QRRequest(url: "https://l.io/a", margin: 2)),
        // Any absolute URL (§10), not only web ones: an app's own scheme, another protocol.
        ("url=myapp%3A%2F%2Fusers%2F42", nil, QRRequest(url: "myapp://users/42")),
        ("url=ftp%3A%2F%2Fx.io%2Fa", "l.io", QRRequest(url: "ftp://x.io/a")),
    ]

    @Test(arguments: accepted)
    func accepts(_ query: String, _ linkHost: String?, _ expected: QRRequest) throws {
        #expect(try QRRequest(query: items(query), linkHost: linkHost) == expected)
    }

    static let refused: [(query: String, code: LinkError.Code, field: String)] = [
        ("", .invalidRequest, "url"),
        ("url=", .invalidRequest, "url"),
        ("url=/users/42", .invalidRequest, "url"),  // a bare location without a link host
        ("url=users/42", .invalidRequest, "url"),
        ("url=//x.io/a", .invalidRequest, "url"),
        ("url=myapp%3A", .invalidRequest, "url"),
        ("url=https%3Ax.io", .invalidRequest, "url"),
        ("url=https%3Ax.io", .invalidRequest, "url"),
        ("url=https%3A%2F%2F%2Fa", .invalidRequest, "url"),
        ("url=https%3A%2F%2Fx.io%2F%25zz", .invalidURL, "url"),
        ("url=https%3A%2F%2Fx.io%2Fa%20b", .invalidURL, "url"),
        ("url=https%3A%2F%2Fx.io%2F%0A", .invalidURL, "url"),
        ("url=https://x.io&format=gif", .invalidRequest, "format"),
        ("url=https://x.io&format=", .invalidRequest, "format"),
        ("url=https://x.io&ecc=X", .invalidRequest, "ecc"),
        ("url=https://x.io&ecc=LM", .invalidRequest, "ecc"),
        ("url=https://x.io&ecc=m", .invalidRequest, "ecc"),
        ("url=https://x.io&format=PNG", .invalidRequest, "format"),
        ("url=https://x.io&size=63", .invalidRequest, "size"),
        ("url=https://x.io&size=2049", .invalidRequest, "size"),
        ("url=https://x.io&size=-100", .invalidRequest, "size"),
        ("url=https://x.io&size=%2B100", .invalidRequest, "size"),
        ("url=https://x.io&size=5e2", .invalidRequest, "size"),
        ("url=https://x.io&size=", .invalidRequest, "size"),
        ("url=https://x.io&size=99999999999999999999", .invalidRequest, "size"),
        ("url=https://x.io&margin=17", .invalidRequest, "margin"),
        ("url=https://x.io&margin=-1", .invalidRequest, "margin"),
        ("url=https://x.io&margin=1.5", .invalidRequest, "margin"),
    ]

    @Test(arguments: refused)
    func refuses(_ query: String, _ code: LinkError.Code, _ field: String) throws {
        let error = #expect(throws: LinkError.self) { try QRRequest(query: items(query), linkHost: nil) }
        #expect(error?.code == code)
        #expect(error?.details["field"] == .string(field))
    }

    @Test func rangeErrorsNameTheLimits() throws {
        let error = #expect(throws: LinkError.self) { try QRRequest(query: items("url=/a&size=10"), linkHost: "l.io") }
        #expect(error?.details == ["field": "size", "value": "10", "min": 64, "max": 2048])
        let ecc = #expect(throws: LinkError.self) { try QRRequest(query: items("url=/a&ecc=Z"), linkHost: "l.io") }
        #expect(ecc?.details == ["field": "ecc", "value": "Z", "allowed": ["L", "M", "Q", "H"]])
    }

    static let capacities: [(QRErrorCorrection, Int)] = [
        (.low, 2953), (.medium, 2331), (.quartile, 1663), (.high, 1273),
    ]

    @Test(arguments: capacities)
    func capacityIsVersion40InByteMode(_ ecc: QRErrorCorrection, _ max: Int) throws {
        #expect(ecc.maxBytes == max)
        let prefix = "https://x.io/"
        let fits = prefix + String(repeating: "a", count: max - prefix.utf8.count)
        let query = "ecc=\(ecc.rawValue)&url="
        #expect(try QRRequest(query: items(query + fits), linkHost: nil).url == fits)
        let error = #expect(throws: LinkError.self) { try QRRequest(query: items(query + fits + "b"), linkHost: nil) }
        #expect(error?.code == .invalidRequest)
        #expect(
            error?.details == ["field": "url", "bytes": .int(max + 1), "max": .int(max), "ecc": .string(ecc.rawValue)])
    }

    @Test func capacityCountsUTF8Bytes() throws {
        // 425 three-byte characters: 1275 bytes, beyond level H's 1273 though only 438 characters.
        let url = "https://x.io/" + String(repeating: "清", count: 425)
        let error = #expect(throws: LinkError.self) { try QRRequest.checkCapacity(url, errorCorrection: .high) }
        #expect(error?.details["bytes"] == .int(url.utf8.count))
        #expect(error?.details["max"] == 1273)
        #expect(error?.details["ecc"] == "H")
    }

    static let hosts: [([String]?, String?)] = [
        (nil, nil),
        ([], nil),
        (["*.example.com"], nil),
        (["*.example.com", "links.example.com", "b.example.com"], "links.example.com"),
        (["a.example.com", "*.example.com"], "a.example.com"),
        (["*.example.org", "::1", "b.example.net"], "[::1]"),
        (["[::1]"], "[::1]"),
    ]

    @Test(arguments: hosts)
    func linkHostIsTheFirstEntryWithoutAWildcard(_ hosts: [String]?, _ expected: String?) {
        #expect(QRRequest.linkHost(from: hosts) == expected)
    }
}
