import Foundation

/// What shows in a slot (API.md §11).
public struct Presentation: Sendable, Hashable, Decodable {
    public let id: String
    public let priority: Int
    /// The sender's JSON: what to show.
    public let payload: JSONValue
    public let since: Date
    public let expires: Date

    enum CodingKeys: String, CodingKey { case id, priority, payload, since, expires }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        priority = try container.decode(Int.self, forKey: .priority)
        payload = try container.decodeIfPresent(JSONValue.self, forKey: .payload) ?? .null
        since = try container.decode(Date.self, forKey: .since)
        expires = try container.decode(Date.self, forKey: .expires)
    }
}

/// A presentation by id and priority, as a present answer names the one replaced or the one that stays.
public struct PresentationSummary: Sendable, Hashable, Decodable {
    public let id: String
    public let priority: Int
}

/// The answer to a present: shown (replacing what was there, if anything), or refused because what shows has
/// an equal or higher priority.
public enum PresentOutcome: Sendable, Hashable {
    case presented(replaced: PresentationSummary?)
    case refused(current: PresentationSummary)
}
