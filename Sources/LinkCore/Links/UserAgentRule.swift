/// One row of ``UserAgentTable``: a token, what it tells when it is in a `User-Agent`, and how it is matched.
public struct UserAgentRule: Sendable, Hashable {
    /// What a row says about an agent.
    public enum Outcome: Sendable, Hashable {
        /// The agent is a bot of this kind.
        case bot(BotKind)
        /// The agent runs on this platform.
        case platform(Platform)
        /// The agent is an in-app browser (Facebook, Instagram, TikTok), which does not open App Links.
        case inAppBrowser
    }

    /// How a row's token is looked for.
    public enum Match: Sendable, Hashable {
        /// The token is a case-sensitive substring of the agent; the row alone decides its outcome.
        case substring
        /// The token, lower-case ASCII, is a substring of the agent with ASCII letters compared case-insensitively;
        /// the row alone decides its outcome.
        case substringIgnoringCase
        /// The token must be a (case-sensitive) substring, together with every other `allOf` row of the same
        /// outcome, and no `noneOf` row of that outcome may match.
        case allOf
        /// The token must not be a (case-sensitive) substring for the outcome's `allOf` rows to decide it.
        case noneOf
        /// The outcome holds when no earlier row of its kind decided (the token is empty).
        case otherwise
    }

    /// The text looked for in the agent.
    public let token: String
    public let outcome: Outcome
    public let match: Match
    /// The token's UTF-8 bytes, kept for the search.
    let bytes: [UInt8]

    public init(_ token: String, _ outcome: Outcome, _ match: Match = .substring) {
        self.token = token
        self.outcome = outcome
        self.match = match
        bytes = Array(token.utf8)
    }
}
