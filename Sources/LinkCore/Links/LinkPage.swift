/// The small HTML pages of the public listener (API.md §7, §9): self-contained (nothing loaded from elsewhere),
/// every text HTML-escaped, nothing internal shown.
public enum LinkPage {
    /// `&`, `<`, `>`, `"` and `'` as entities (a byte scan: text without them is returned as is).
    public static func escape(_ text: String) -> String {
        guard text.withUTF8Bytes({ HTMLBytes.firstSpecial($0) < $0.count }) else { return text }
        var output = HTMLBytes(capacity: text.utf8.count + 32)
        output.text(text)
        return output.string
    }

    /// `text` cut to its first `limit` characters, as §7 says (no ellipsis: it would replace the last character
    /// kept; a preview card marks a cut text itself).
    public static func cut(_ text: String, to limit: Int) -> String {
        // No more bytes than the limit means no more characters either: most texts never count characters.
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit))
    }

    private static func document(title: String, head: String = "", body: String) -> String {
        var page = HTMLBytes(capacity: 1_024 + head.utf8.count + body.utf8.count)
        page.document(title: title) { page in
            page.made(head)
        } body: { page in
            page.made(body)
        }
        return page.string
    }

    /// A short page for an answer without a destination: 400, 404, 410.
    public static func message(title: String, text: String) -> String {
        var page = HTMLBytes(capacity: 1_024)
        page.document(title: title) { _ in
        } body: { page in
            page.raw("<main><h1>")
            page.text(title)
            page.raw("</h1><p>")
            page.text(text)
            page.raw("</p></main>")
        }
        return page.string
    }

    /// The card a link previewer reads (step 5): Open Graph and Twitter tags, a canonical link; no script.
    public static func preview(
        title: String, description: String?, image: String?, url: String, siteName: String?, canonical: String?
    ) -> String {
        String(
            decoding: previewBytes(
                title: title, description: description, image: image, url: url, siteName: siteName,
                canonical: canonical),
            as: UTF8.self)
    }

    /// ``preview(title:description:image:url:siteName:canonical:)`` as the bytes of the response body: the listener
    /// answers every bot with it, so it never becomes a `String` on the way (a validated copy, then a copy back).
    public static func previewBytes(
        title: String, description: String?, image: String?, url: String, siteName: String?, canonical: String?
    ) -> [UInt8] {
        let title = cut(title, to: 70)
        let description = description.map { cut($0, to: 200) }
        var page = HTMLBytes(
            capacity: 1_536 + 2 * title.utf8.count + 3 * (description?.utf8.count ?? 0) + (image?.utf8.count ?? 0)
                + url.utf8.count + (siteName?.utf8.count ?? 0) + (canonical?.utf8.count ?? 0))
        page.document(title: title) { page in
            page.raw("<meta property=\"og:title\" content=\"")
            page.text(title)
            page.raw("\">\n")
            if let description {
                page.raw("<meta name=\"description\" content=\"")
                page.text(description)
                page.raw("\">\n<meta property=\"og:description\" content=\"")
                page.text(description)
                page.raw("\">\n")
            }
            page.raw("<meta property=\"og:type\" content=\"website\">\n")
            if let image {
                page.raw("<meta property=\"og:image\" content=\"")
                page.text(image)
                page.raw("\">\n")
            }
            page.raw("<meta property=\"og:url\" content=\"")
            page.text(url)
            page.raw("\">\n")
            if let siteName {
                page.raw("<meta property=\"og:site_name\" content=\"")
                page.text(siteName)
                page.raw("\">\n")
            }
            page.raw("<meta name=\"twitter:card\" content=\"")
            page.raw(image == nil ? "summary" : "summary_large_image")
            page.raw("\">\n")
            if let canonical {
                page.raw("<link rel=\"canonical\" href=\"")
                page.text(canonical)
                page.raw("\">\n")
            }
        } body: { page in
            page.raw("<main><h1>")
            page.text(title)
            page.raw("</h1>")
            if let description {
                page.raw("<p>")
                page.text(description)
                page.raw("</p>")
            }
            page.raw("</main>")
        }
        return page.finish()
    }

    /// Safari on a Mac or an iPad looks the same: the page asks the browser (step 2) and reloads with `_lsp`.
    public static func platformCheck(iosURL: String, desktopURL: String) -> String {
        let script = """
            <script>location.replace(navigator.maxTouchPoints > 1 ? \(jsString(iosURL)) : \(jsString(desktopURL)));</script>
            """
        return document(
            title: "Opening…",
            body:
                "<main><p>Opening…</p>\(script)<noscript><a href=\"\(escape(desktopURL))\">Continue</a></noscript></main>"
        )
    }

    /// Android in-app browsers do not open App Links: a button opens the app by intent; the store after 1.5 s.
    public static func intent(intentURL: String, storeURL: String, title: String) -> String {
        let script = "<script>setTimeout(function(){location.href=\(jsString(storeURL))},1500);</script>"
        return document(
            title: title,
            body: """
                <main><h1>\(escape(title))</h1><p><a class="button" href="\(escape(intentURL))">Open the app</a></p>\
                <p><a href="\(escape(storeURL))">Get the app</a></p>\(script)</main>
                """)
    }

    /// The iOS landing page (API.md §9): the button copies the link with its token, then opens the store.
    public static func landing(
        title: String, description: String?, copyText: String, storeURL: String, appID: String?, appArgument: String,
        openURL: String?
    ) -> String {
        var head = ""
        if let appID {
            // The content is a comma-separated list: a comma of the link is sent as `%2C` (the same URL to the app),
            // or `?a=x,app-id=666` in a link would name another app for the banner.
            let argument = appArgument.split(separator: ",", omittingEmptySubsequences: false).joined(separator: "%2C")
            head +=
                "<meta name=\"apple-itunes-app\" content=\"app-id=\(escape(appID)), app-argument=\(escape(argument))\">\n"
        }
        let script = """
            <script>
            document.getElementById("get").addEventListener("click", function (event) {
              event.preventDefault();
              var text = \(jsString(copyText)), store = \(jsString(storeURL));
              function fallback() {
                try { var input = document.getElementById("link"); input.hidden = false; input.select();
                  document.execCommand("copy"); input.hidden = true; } catch (e) {}
                location.href = store;
              }
              if (navigator.clipboard && navigator.clipboard.writeText) {
                navigator.clipboard.writeText(text).then(function () { location.href = store; }, fallback);
              } else { fallback(); }
            });
            </script>
            """
        var body = "<main><h1>\(escape(cut(title, to: 70)))</h1>"
        if let description { body += "<p>\(escape(cut(description, to: 200)))</p>" }
        body += "<p><a id=\"get\" class=\"button\" href=\"\(escape(storeURL))\">Get the app</a></p>"
        body += "<input id=\"link\" type=\"text\" value=\"\(escape(copyText))\" aria-label=\"Link\" readonly hidden>"
        if let openURL { body += "<p><a href=\"\(escape(openURL))\">Already have the app? Open it</a></p>" }
        body += script + "</main>"
        return document(title: title, head: head, body: body)
    }

    /// A JavaScript string literal that is safe inside a `<script>` element.
    static func jsString(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "<": output += "\\u003C"
            case ">": output += "\\u003E"
            case "&": output += "\\u0026"
            case "\u{2028}": output += "\\u2028"
            case "\u{2029}": output += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }
}

/// An HTML page written straight into bytes: constant markup copied as is, every text escaped on the way in (a
/// preview built by `String` interpolation and appends cost ~26,000 instructions, most of a bot's click).
struct HTMLBytes: ~Copyable {
    private var output: ByteOutput

    init(capacity: Int) {
        output = ByteOutput(capacity: capacity)
    }

    var string: String { output.withBytes { String(decoding: $0, as: UTF8.self) } }

    consuming func finish() -> [UInt8] { output.finish() }

    /// Markup, copied as is.
    mutating func raw(_ markup: StaticString) {
        output.append(markup)
    }

    /// Markup made at run time (a page part already escaped), copied as is. Not an overload of ``raw(_:)``: a
    /// literal would pick it (`String` is the default literal type) and be built and appended as a `String`.
    mutating func made(_ markup: String) {
        markup.withUTF8Bytes { output.append($0) }
    }

    /// Text: `&`, `<`, `>`, `"` and `'` as entities (``LinkPage/escape(_:)`` is this, for a text on its own).
    mutating func text(_ text: String) {
        text.withUTF8Bytes { utf8 in
            var runStart = HTMLBytes.firstSpecial(utf8)
            guard runStart < utf8.count else { return output.append(utf8) }
            output.append(UnsafeBufferPointer(rebasing: utf8[..<runStart]))
            for index in runStart..<utf8.count {
                let entity: StaticString
                switch utf8[index] {
                case 0x26: entity = "&amp;"
                case 0x3C: entity = "&lt;"
                case 0x3E: entity = "&gt;"
                case 0x22: entity = "&quot;"
                case 0x27: entity = "&#39;"
                default: continue
                }
                output.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                output.append(entity)
                runStart = index + 1
            }
            output.append(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
    }

    /// The position of the first `&`, `<`, `>`, `"` or `'` in `utf8`, or its count.
    @inline(__always)
    static func firstSpecial(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        ByteScan.firstIndex(
            in: utf8,
            mayStop: { word in
                ByteScan.equal(word, 0x26) | ByteScan.equal(word, 0x3C) | ByteScan.equal(word, 0x3E)
                    | ByteScan.equal(word, 0x22) | ByteScan.equal(word, 0x27) != 0
            },
            stops: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
    }

    /// The frame of every page: `head` inside `<head>` after the title, `body` inside `<body>`.
    mutating func document(title: String, head: (inout HTMLBytes) -> Void, body: (inout HTMLBytes) -> Void) {
        raw(
            """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>
            """)
        text(title)
        raw("</title>\n")
        head(&self)
        raw(
            """
            <style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}\
            a.button,button{display:inline-block;padding:.75rem 1.25rem;border-radius:.5rem;background:#0b57d0;color:#fff;\
            border:0;font-size:1rem;text-decoration:none}</style>
            </head><body>

            """)
        body(&self)
        raw("\n</body></html>\n")
    }
}
