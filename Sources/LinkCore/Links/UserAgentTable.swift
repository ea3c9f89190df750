/// The documented table of API.md §7 step 2: how a `User-Agent` tells bots, platforms and in-app browsers.
///
/// This file holds the data and nothing else; ``UserAgentClass`` reads it, and every row has a test.
/// Order matters within each outcome kind:
/// - bots: the first row whose token is found names the kind (so `preview` rows come before `crawler` rows, and
///   the case-insensitive catch-alls `bot`, `crawler`, `spider` come last);
/// - platforms: the first platform, in the order of its first row, whose rows are satisfied wins: one of its
///   `substring` rows is found, or all of its `allOf` rows are found and none of its `noneOf` rows; `desktop`
///   (`otherwise`) is the rest;
/// - in-app browsers: any row found.
///
/// Tokens are matched as plain byte substrings: case-sensitive unless marked `substringIgnoringCase`.
public enum UserAgentTable {
    /// The rows, in the order they are tested.
    public static let rows: [UserAgentRule] = [
        // Bots: preview (Apple Messages' previewer sends `facebookexternalhit`).
        UserAgentRule("facebookexternalhit", .bot(.preview)),
        UserAgentRule("Facebot", .bot(.preview)),
        UserAgentRule("meta-externalagent", .bot(.preview)),
        UserAgentRule("facebookcatalog", .bot(.preview)),
        UserAgentRule("Twitterbot", .bot(.preview)),
        UserAgentRule("Slackbot", .bot(.preview)),
        UserAgentRule("LinkedInBot", .bot(.preview)),
        UserAgentRule("Discordbot", .bot(.preview)),
        UserAgentRule("TelegramBot", .bot(.preview)),
        UserAgentRule("WhatsApp", .bot(.preview)),
        UserAgentRule("SkypeUriPreview", .bot(.preview)),
        UserAgentRule("Embedly", .bot(.preview)),
        UserAgentRule("Iframely", .bot(.preview)),
        UserAgentRule("redditbot", .bot(.preview)),
        UserAgentRule("Pinterestbot", .bot(.preview)),
        UserAgentRule("vkShare", .bot(.preview)),
        UserAgentRule("Bluesky Cardyb", .bot(.preview)),
        UserAgentRule("Mastodon/", .bot(.preview)),
        // Bots: crawlers, then the case-insensitive catch-alls.
        UserAgentRule("Googlebot", .bot(.crawler)),
        UserAgentRule("Google-InspectionTool", .bot(.crawler)),
        UserAgentRule("GoogleOther", .bot(.crawler)),
        UserAgentRule("bingbot", .bot(.crawler)),
        UserAgentRule("BingPreview", .bot(.crawler)),
        UserAgentRule("Applebot", .bot(.crawler)),
        UserAgentRule("DuckDuckBot", .bot(.crawler)),
        UserAgentRule("YandexBot", .bot(.crawler)),
        UserAgentRule("Baiduspider", .bot(.crawler)),
        UserAgentRule("AASA-Bot", .bot(.crawler)),
        UserAgentRule("HeadlessChrome", .bot(.crawler)),
        UserAgentRule("curl/", .bot(.crawler)),
        UserAgentRule("Wget/", .bot(.crawler)),
        UserAgentRule("python-requests", .bot(.crawler)),
        UserAgentRule("Go-http-client", .bot(.crawler)),
        UserAgentRule("bot", .bot(.crawler), .substringIgnoringCase),
        UserAgentRule("crawler", .bot(.crawler), .substringIgnoringCase),
        UserAgentRule("spider", .bot(.crawler), .substringIgnoringCase),
        // Platforms.
        UserAgentRule("iPhone", .platform(.ios)),
        UserAgentRule("iPad", .platform(.ios)),
        UserAgentRule("iPod", .platform(.ios)),
        UserAgentRule("Android", .platform(.android)),
        UserAgentRule("Macintosh", .platform(.ambiguous), .allOf),
        UserAgentRule("Safari/", .platform(.ambiguous), .allOf),
        UserAgentRule("Version/", .platform(.ambiguous), .allOf),
        UserAgentRule("Chrome", .platform(.ambiguous), .noneOf),
        UserAgentRule("CriOS", .platform(.ambiguous), .noneOf),
        UserAgentRule("FxiOS", .platform(.ambiguous), .noneOf),
        UserAgentRule("Firefox", .platform(.ambiguous), .noneOf),
        UserAgentRule("Edg", .platform(.ambiguous), .noneOf),
        UserAgentRule("", .platform(.desktop), .otherwise),
        // In-app browsers (step 6).
        UserAgentRule("FBAN", .inAppBrowser),
        UserAgentRule("FBAV", .inAppBrowser),
        UserAgentRule("FB_IAB", .inAppBrowser),
        UserAgentRule("Instagram", .inAppBrowser),
        UserAgentRule("musical_ly", .inAppBrowser),
        UserAgentRule("BytedanceWebview", .inAppBrowser),
    ]
}
