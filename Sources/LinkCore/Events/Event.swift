/// One emitted event as a subscriber receives it (API.md §5).
public struct Event: Sendable, Hashable {
    /// Strictly increasing across the bus.
    public let seq: Int
    /// The subscriber's best-matching event type.
    public let type: EventType
    public let location: Location
    public let parameters: PathParameters
    public let extra: JSONValue
    /// When it was emitted, RFC 3339 UTC, as given by the emitter's clock.
    public let time: String

    public init(
        seq: Int, type: EventType, location: Location, parameters: PathParameters, extra: JSONValue, time: String
    ) {
        self.seq = seq
        self.type = type
        self.location = location
        self.parameters = parameters
        self.extra = extra
        self.time = time
    }

    /// `{"seq", "name", "pattern", "location", "params", "query", "extra", "time"}`.
    public func json() -> JSONValue {
        .object([
            "seq": .int(seq),
            "name": type.name.map(JSONValue.string) ?? .null,
            "pattern": .string(type.pattern.description),
            "location": .string(location.description),
            "params": parameters.json(),
            "query": .object(location.query.map.mapValues(JSONValue.string)),
            "extra": extra,
            "time": .string(time),
        ])
    }
}

/// The answer to a poll: the queued events newer than `after`, the cursor to acknowledge them with, and how
/// many events the bounded queue dropped since the last answer.
public struct PollResult: Sendable, Hashable {
    public var events: [Event]
    public var cursor: Int
    public var missed: Int

    public func json() -> JSONValue {
        ["events": .array(events.map { $0.json() }), "cursor": .int(cursor), "missed": .int(missed)]
    }
}

/// The answer to an emit.
public struct EmitResult: Sendable, Hashable {
    public var seq: Int
    /// Subscriptions that received the event.
    public var delivered: Int
    /// The matched event types, best first, by name or by pattern when unnamed.
    public var matched: [String]

    public init(seq: Int, delivered: Int, matched: [String]) {
        self.seq = seq
        self.delivered = delivered
        self.matched = matched
    }

    public func json() -> JSONValue {
        ["seq": .int(seq), "delivered": .int(delivered), "matched": .array(matched.map(JSONValue.string))]
    }
}
