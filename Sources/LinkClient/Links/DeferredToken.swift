import Foundation

/// Finds a deferred-link token in what the app has on first launch (API.md §9).
public enum DeferredToken {
    /// The token in `text`: a link copied by the iOS landing page (its `lst` query item), or an Android install
    /// referrer (`…&linkserver_token=<token>&…`, decoded once). `nil` when there is none.
    /// - Parameter hosts: a URL's host must be one of these (the service's `links.hosts`; `*.example.com` for any
    ///   name under it), so a stranger's link on the pasteboard is never sent to the service: with none, no URL is
    ///   claimed, as ``link(inPasteboard:hosts:)`` finds none. An install referrer needs no hosts.
    public static func find(in text: String, hosts: [String] = []) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let components = webLink(trimmed) {
            guard isOn(hosts, components) else { return nil }
            return nonEmpty(components.queryItems?.last { $0.name == "lst" }?.value)
        }
        // An install referrer is a form-encoded query string.
        return nonEmpty(formValue("linkserver_token", in: trimmed))
    }

    /// The link as clicked in an Android install referrer (`linkserver_link`), to resolve when the token is gone.
    public static func link(inReferrer referrer: String) -> String? {
        nonEmpty(formValue("linkserver_link", in: referrer))
    }

    /// The link as clicked in a link the iOS landing page copied, without its `lst` item, to resolve when the claim
    /// gives nothing: the token expired or was used, or the page copied the link without one (the service's token
    /// budget was spent: docs/deferred-links.md, "Limits"). `nil` when `text` is not an `http(s)` link on one of
    /// `hosts` (the service's `links.hosts`): a pasteboard can hold anything, so an empty `hosts` finds nothing.
    public static func link(inPasteboard text: String, hosts: [String]) -> String? {
        guard var components = webLink(text.trimmingCharacters(in: .whitespacesAndNewlines)), isOn(hosts, components)
        else { return nil }
        // The other items as they were written (not decoded and encoded again).
        if let items = components.percentEncodedQueryItems {
            let kept = items.filter { $0.name != "lst" }
            components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
        }
        return components.string
    }

    /// The last value of `key` in a form-encoded string (`a=1&b=2`, `+` for a space); `nil` when absent.
    static func formValue(_ key: String, in text: String) -> String? {
        var found: String?
        for item in text.split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String? {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            if decode(parts[0]) == key { found = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return found
    }

    /// `text` as an `http` or `https` URL, or `nil` when it is not one.
    private static func webLink(_ text: String) -> URLComponents? {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            ["http", "https"].contains(scheme.lowercased())
        else { return nil }
        return components
    }

    /// Whether the link's host is one of `hosts` (`*.example.com` for any name under it).
    private static func isOn(_ hosts: [String], _ components: URLComponents) -> Bool {
        guard let host = components.host?.lowercased() else { return false }
        return hosts.contains { matches(host, $0) }
    }

    private static func matches(_ host: String, _ pattern: String) -> Bool {
        let pattern = pattern.lowercased()
        if pattern.hasPrefix("*.") { return host.hasSuffix(pattern.dropFirst()) }
        return host == pattern
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
