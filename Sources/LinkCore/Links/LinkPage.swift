/// The small HTML pages of the public listener (API.md §7, §9): self-contained (nothing loaded from elsewhere),
/// every text HTML-escaped, nothing internal shown.
public enum LinkPage {
    /// `&`, `<`, `>`, `"` and `'` as entities (a byte scan: text without them is returned as is).
    public static func escape(_ text: String) -> String {
        let special = { (byte: UInt8) in byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 }
        // The scan runs over the contiguous bytes when the string has them (always, for a native string): the generic
        // walk of the UTF-8 view costs several times more.
        let clean =
            text.utf8.withContiguousStorageIfAvailable { !$0.contains(where: special) }
            ?? !text.utf8.contains(where: special)
        guard !clean else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 32)
        for byte in text.utf8 {
            switch byte {
            case 0x26: output += "&amp;".utf8
            case 0x3C: output += "&lt;".utf8
            case 0x3E: output += "&gt;".utf8
            case 0x22: output += "&quot;".utf8
            case 0x27: output += "&#39;".utf8
            default: output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` cut to at most `limit` characters (an ellipsis marks a cut).
    public static func cut(_ text: String, to limit: Int) -> String {
        // No more bytes than the limit means no more characters either: most texts never count characters.
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    private static func document(title: String, head: String = "", body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        \(head)<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}\
        a.button,button{display:inline-block;padding:.75rem 1.25rem;border-radius:.5rem;background:#0b57d0;color:#fff;\
        border:0;font-size:1rem;text-decoration:none}</style>
        </head><body>
        \(body)
        </body></html>

        """
    }

    /// A short page for an answer without a destination: 400, 404, 410.
    public static func message(title: String, text: String) -> String {
        document(title: title, body: "<main><h1>\(escape(title))</h1><p>\(escape(text))</p></main>")
    }

    /// The card a link previewer reads (step 5): Open Graph and Twitter tags, a canonical link; no script.
    public static func preview(
        title: String, description: String?, image: String?, url: String, siteName: String?, canonical: String?
    ) -> String {
        let title = cut(title, to: 70)
        var head = ""
        // Room for the tags and their texts up front: appending them one by one would grow the string several times.
        head.reserveCapacity(
            512 + title.utf8.count + 2 * (description?.utf8.count ?? 0) + (image?.utf8.count ?? 0) + url.utf8.count
                + (siteName?.utf8.count ?? 0) + (canonical?.utf8.count ?? 0))
        head += "<meta property=\"og:title\" content=\"\(escape(title))\">\n"
        if let description {
            let text = escape(cut(description, to: 200))
            head += "<meta name=\"description\" content=\"\(text)\">\n"
            head += "<meta property=\"og:description\" content=\"\(text)\">\n"
        }
        head += "<meta property=\"og:type\" content=\"website\">\n"
        if let image { head += "<meta property=\"og:image\" content=\"\(escape(image))\">\n" }
        head += "<meta property=\"og:url\" content=\"\(escape(url))\">\n"
        if let siteName { head += "<meta property=\"og:site_name\" content=\"\(escape(siteName))\">\n" }
        head += "<meta name=\"twitter:card\" content=\"\(image == nil ? "summary" : "summary_large_image")\">\n"
        if let canonical { head += "<link rel=\"canonical\" href=\"\(escape(canonical))\">\n" }
        let body =
            "<main><h1>\(escape(title))</h1>" + (description.map { "<p>\(escape(cut($0, to: 200)))</p>" } ?? "")
            + "</main>"
        return document(title: title, head: head, body: body)
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
            head +=
                "<meta name=\"apple-itunes-app\" content=\"app-id=\(escape(appID)), app-argument=\(escape(appArgument))\">\n"
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
