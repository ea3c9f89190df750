import LinkCore
import Testing

/// The pages of the public listener, written into bytes: the frame, each tag, and every text escaped.
@Suite struct LinkPageTests {
    static let hostile = #"<script>"x"&'y'</script>"#
    static let escaped = "&lt;script&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/script&gt;"

    /// Texts are scanned eight bytes at a time: a special character is escaped wherever it falls, in the first
    /// eight bytes, across a word's edge or in the byte-by-byte tail, and a text without one is copied whole.
    @Test(arguments: ["&", "<", ">", "\"", "'"])
    func escapesASpecialCharacterAtEveryPosition(special: String) {
        let entities = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]
        for length in [1, 7, 8, 9, 16, 23] {
            for position in 0..<length {
                let text =
                    String(repeating: "a", count: position) + special
                    + String(repeating: "é", count: length - position - 1)
                let expected =
                    String(repeating: "a", count: position) + entities[special]!
                    + String(repeating: "é", count: length - position - 1)
                #expect(LinkPage.escape(text) == expected, "\(length) \(position)")
            }
        }
        #expect(LinkPage.escape(String(repeating: "plain ", count: 9)) == String(repeating: "plain ", count: 9))
    }

    @Test func aPreviewHasEveryTagWithItsTextEscaped() {
        let page = LinkPage.preview(
            title: Self.hostile, description: Self.hostile, image: "https://x/i.png?a=1&b=" + Self.hostile,
            url: "https://links/" + Self.hostile, siteName: Self.hostile, canonical: "https://www/" + Self.hostile)
        #expect(page.hasPrefix("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"))
        #expect(page.hasSuffix("</main>\n</body></html>\n"))
        #expect(
            page.contains("<title>\(Self.escaped)</title>\n<meta property=\"og:title\" content=\"\(Self.escaped)\">"))
        #expect(page.contains("<meta name=\"description\" content=\"\(Self.escaped)\">"))
        #expect(page.contains("<meta property=\"og:description\" content=\"\(Self.escaped)\">"))
        #expect(page.contains("<meta property=\"og:type\" content=\"website\">"))
        #expect(page.contains("<meta property=\"og:image\" content=\"https://x/i.png?a=1&amp;b=\(Self.escaped)\">"))
        #expect(page.contains("<meta property=\"og:url\" content=\"https://links/\(Self.escaped)\">"))
        #expect(page.contains("<meta property=\"og:site_name\" content=\"\(Self.escaped)\">"))
        #expect(page.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"))
        #expect(page.contains("<link rel=\"canonical\" href=\"https://www/\(Self.escaped)\">"))
        #expect(page.contains("<main><h1>\(Self.escaped)</h1><p>\(Self.escaped)</p></main>"))
        #expect(!page.contains("<script"))
    }

    @Test func aPreviewWithoutOptionalTextsLeavesTheirTagsOut() {
        let page = LinkPage.preview(
            title: String(repeating: "t", count: 100), description: nil, image: nil, url: "https://l/1", siteName: nil,
            canonical: nil)
        // Cut to its first 70 characters (§7), no more, no less, and nothing added.
        #expect(page.contains("<meta property=\"og:title\" content=\"\(String(repeating: "t", count: 70))\">"))
        #expect(page.contains("<meta name=\"twitter:card\" content=\"summary\">"))
        for absent in ["description", "og:image", "og:site_name", "canonical", "<p>"] {
            #expect(!page.contains(absent))
        }
        #expect(page.contains("<main><h1>\(String(repeating: "t", count: 70))</h1></main>"))
    }

    @Test func aMessagePageEscapesItsTexts() {
        let page = LinkPage.message(title: Self.hostile, text: "a & b")
        #expect(page.contains("<title>\(Self.escaped)</title>\n<style>"))
        #expect(page.contains("</head><body>\n<main><h1>\(Self.escaped)</h1><p>a &amp; b</p></main>\n</body></html>\n"))
    }
}
