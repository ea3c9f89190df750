/// What a counted request was (API.md §8). The four kinds never overlap.
public enum ClickKind: String, Sendable, Hashable, CaseIterable {
    /// A person's click on a matched route.
    case click
    /// An app open (`POST /v1/links/opens`) on a matched route.
    case open
    /// A bot request, matched or not.
    case bot
    /// A person's click or an app open that matched no route.
    case unmatched
}

/// One statistics counter: a UTC day × route × platform × kind.
public struct ClickKey: Sendable, Hashable {
    /// Days since the Unix epoch (UTC).
    public var day: Int64
    /// The route's full pattern, or `""` when nothing matched.
    public var pattern: String
    /// `ios`, `android` or `desktop` for people; the bot kind (`preview`, `crawler`) for bots.
    public var platform: String
    public var kind: ClickKind

    public init(day: Int64, pattern: String, platform: String, kind: ClickKind) {
        self.day = day
        self.pattern = pattern
        self.platform = platform
        self.kind = kind
    }
}

/// A counter's value, with the route's name when it was counted (`nil` for unnamed routes and no match).
public struct ClickCount: Sendable, Hashable {
    public var key: ClickKey
    public var name: String?
    public var count: Int

    /// The largest count a figure reports (2^53, also the largest integer JavaScript holds exactly): sums stop
    /// there, so counters of a store edited by hand cannot overflow (a trap) however many are added.
    public static let maximum = 1 << 53

    /// `total + count`, with `count` read as 0...``maximum`` and the sum stopped at ``maximum``.
    public static func adding(_ count: Int, to total: Int) -> Int {
        min(min(total, maximum) + min(max(count, 0), maximum), maximum)
    }

    public init(key: ClickKey, name: String?, count: Int) {
        self.key = key
        self.name = name
        self.count = count
    }
}
