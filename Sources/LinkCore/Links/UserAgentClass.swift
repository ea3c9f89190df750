/// What a `User-Agent` tells about a click (API.md §7, step 2): whether a bot sent it, from which platform, and
/// whether it comes from an in-app browser.
///
/// Bots are told first, but a bot still has a platform (Googlebot's smartphone agent is a crawler on `android`).
/// The rules are the rows of ``UserAgentTable``; an empty agent is a `desktop` person.
public struct UserAgentClass: Sendable, Hashable {
    /// The kind of bot, or `nil` for a person.
    public var bot: BotKind?
    public var platform: Platform
    /// Whether the agent is an in-app browser (`FBAN`, `FBAV`, `FB_IAB`, `Instagram`, `musical_ly`,
    /// `BytedanceWebview`), which does not open App Links.
    public var isInAppBrowser: Bool

    public init(bot: BotKind?, platform: Platform, isInAppBrowser: Bool) {
        self.bot = bot
        self.platform = platform
        self.isInAppBrowser = isInAppBrowser
    }

    /// Classifies `userAgent` (the header's value, possibly empty) by ``UserAgentTable``.
    public init(userAgent: String) {
        self = UserAgentClassifier.standard.classify(userAgent)
    }

    /// The `bot` value of a click context and a click answer: `"preview"`, `"crawler"`, or `false` for a person.
    public var botJSON: JSONValue {
        bot.map { .string($0.rawValue) } ?? .bool(false)
    }
}
