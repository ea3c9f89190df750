/// Percent-encoding for callers outside the domain (URL query items of store links, page URLs).
public enum URLEncoding {
    /// `text` with everything but RFC 3986's unreserved characters percent-encoded (`/` → `%2F`, `&` → `%26`).
    public static func component(_ text: String) -> String {
        PercentCoding.encode(text, allowing: .unreserved)
    }

    /// The decoded text of a query component (`+` stays a plus); `nil` for a malformed escape or invalid UTF-8.
    public static func decoded(_ text: some StringProtocol) -> String? {
        try? PercentCoding.decode(String(text), allowControls: true)
    }
}
