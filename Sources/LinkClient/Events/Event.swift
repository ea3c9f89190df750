import Foundation

/// One event from the bus (API.md §5).
public struct Event: Sendable, Hashable, Codable {
    /// Grows strictly across the whole bus, and across restarts.
    public let seq: Int
    /// The event type's name, when it has one.
    public let name: String?
    /// The best-matching pattern of the subscription, e.g. `/seek/:progress`.
    public let pattern: String
    /// The location emitted, e.g. `/seek/30?x=1`.
    public let location: String
    public let params: [String: String]
    public let query: [String: String]
    /// The emitter's JSON, as sent (`null` when absent).
    public let extra: JSONValue
    /// When it was emitted.
    public let time: Date

    enum CodingKeys: String, CodingKey { case seq, name, pattern, location, params, query, extra, time }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seq = try container.decode(Int.self, forKey: .seq)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        pattern = try container.decode(String.self, forKey: .pattern)
        location = try container.decode(String.self, forKey: .location)
        params = try container.decode([String: String].self, forKey: .params)
        query = try container.decode([String: String].self, forKey: .query)
        extra = try container.decodeIfPresent(JSONValue.self, forKey: .extra) ?? .null
        time = try container.decode(Date.self, forKey: .time)
    }
}

/// The answer to an emit: the event's `seq`, how many subscriptions received it, and which types matched.
public struct EmitResult: Sendable, Hashable, Codable {
    public let seq: Int
    public let delivered: Int
    /// The names (or patterns, for unnamed types) of the types that matched.
    public let matched: [String]
}
