import Testing

@testable import LinkCore

/// The `ETag` of a QR image: a hash of the normalised parameters and the URL (API.md §10).
@Suite struct QRRequestEntityTagTests {
    func tag(_ query: String) throws -> String {
        try QRRequest(query: Query(parsing: query).items.map { ($0.name, $0.value) }, linkHost: "l.io").entityTag
    }

    /// Pinned: every instance, and every release that draws the same image, must give the same tag.
    @Test func isStable() throws {
        #expect(QRRequest(url: "https://example.com/a").entityTag == #""0c25920b8e54e716""#)
    }

    @Test func isAQuotedHexHash() throws {
        let tag = try tag("url=/a")
        #expect(tag.utf8.count == 18)
        #expect(tag.first == "\"" && tag.last == "\"")
        #expect(tag.dropFirst().dropLast().allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test func followsTheNormalisedParameters() throws {
        let base = try tag("url=/a")
        #expect(try tag("url=/a&format=svg&size=512&margin=4&ecc=M") == base)
        #expect(try tag("ecc=M&format=svg&url=/a&other=1&size=0512") == base)
        #expect(try tag("url=https%3A%2F%2Fl.io%2Fa") == base)
        for different in ["url=/A", "url=/a&format=png", "url=/a&size=513", "url=/a&margin=3", "url=/a&ecc=H"] {
            #expect(try tag(different) != base, "\(different)")
        }
    }
}
