/// Store-URL surgery for deferred deep links (API.md §9).
public enum PlayReferrer {
    /// `storeURL` with `linkserver_token` (when there is one) and `linkserver_link` added to the items of its
    /// `referrer` value.
    ///
    /// The existing `referrer` (if any) is decoded once, the two items are appended, and the result is
    /// form-encoded and set in the old one's place (else appended last). Other items stay as they were.
    public static func adding(token: String?, link: String, to storeURL: String) -> String {
        // Nothing to add (no token, a link too long to carry): the store URL as it is, not an empty `referrer=`.
        if token == nil && link.utf8.count > LinksSettings.maxDeferredLinkBytes { return storeURL }
        let fragmentStart = storeURL.firstIndex(of: "#") ?? storeURL.endIndex
        let beforeFragment = storeURL[..<fragmentStart]
        guard let mark = beforeFragment.firstIndex(of: "?") else {
            return String(beforeFragment) + "?referrer=" + referrer("", token: token, link: link)
                + storeURL[fragmentStart...]
        }
        var items = beforeFragment[beforeFragment.index(after: mark)...].split(
            separator: "&", omittingEmptySubsequences: false
        ).map(String.init)
        if let index = items.firstIndex(where: { $0 == "referrer" || $0.hasPrefix("referrer=") }) {
            let old = URLEncoding.decoded(items[index].dropFirst("referrer".count).drop { $0 == "=" }) ?? ""
            items[index] = "referrer=" + referrer(old, token: token, link: link)
        } else {
            items.append("referrer=" + referrer("", token: token, link: link))
        }
        return String(beforeFragment[...mark]) + items.joined(separator: "&") + storeURL[fragmentStart...]
    }

    /// The referrer's items: `old`'s, the token's and the link's. A link longer than
    /// ``LinksSettings/maxDeferredLinkBytes`` is left out: encoded twice it would triple, and the redirect would no
    /// longer fit the connection's memory (the person still reaches the store).
    private static func referrer(_ old: String, token: String?, link: String) -> String {
        var inner = old
        if let token { inner += (inner.isEmpty ? "" : "&") + "linkserver_token=" + URLEncoding.component(token) }
        if link.utf8.count <= LinksSettings.maxDeferredLinkBytes {
            inner += (inner.isEmpty ? "" : "&") + "linkserver_link=" + URLEncoding.component(link)
        }
        return URLEncoding.component(inner)
    }

    /// The decoded value of the first query item `name` of `url`.
    public static func queryValue(_ name: String, in url: String) -> String? {
        guard let mark = url.firstIndex(of: "?") else { return nil }
        let query = url[url.index(after: mark)...].prefix { $0 != "#" }
        for item in query.split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0] == name { return URLEncoding.decoded(parts.count > 1 ? parts[1] : "") }
        }
        return nil
    }

    /// The numeric app ID of an App Store URL (`https://apps.apple.com/app/id123456789` → `123456789`).
    public static func appStoreID(_ url: String) -> String? {
        let path = url.prefix { $0 != "?" && $0 != "#" }
        guard let last = path.split(separator: "/").last, last.hasPrefix("id") else { return nil }
        let digits = last.dropFirst(2)
        return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) ? String(digits) : nil
    }
}
