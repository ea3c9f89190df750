/// Click statistics (API.md §8). `clicks`, `opens`, `bots` and `unmatched` never overlap.
public struct ClickStats: Sendable, Hashable, Codable {
    /// One UTC day.
    public struct Day: Sendable, Hashable, Codable {
        public let day: String
        public let clicks: Int
        public let opens: Int
        public let bots: Int
    }

    /// One route's counts.
    public struct RouteCount: Sendable, Hashable, Codable {
        public let name: String?
        public let pattern: String
        public let clicks: Int
        public let opens: Int
        public let bots: Int
    }

    public let from: String
    public let to: String
    public let clicks: Int
    public let opens: Int
    public let bots: Int
    public let unmatched: Int
    /// People on matched routes by platform: `ios`, `android`, `desktop`.
    public let byPlatform: [String: Int]
    /// Every day of the range, zeros included.
    public let byDay: [Day]
    /// Routes with a count in the range, most clicks + opens first.
    public let routes: [RouteCount]
}
