import DequeModule

/// One emitted event as a subscriber receives it (API.md §5).
///
/// A class: one event sits in the queue of every subscription it reached and in their answers, and copying the
/// value (its type, location, parameters, extra, time and bytes) retained and released each part per subscriber.
public final class Event: Sendable, Hashable {
    /// Strictly increasing across the bus.
    public let seq: Int
    /// The subscriber's best-matching event type.
    public let type: EventType
    public let location: Location
    public let parameters: PathParameters
    public let extra: JSONValue
    /// When it was emitted, RFC 3339 UTC, as given by the emitter's clock.
    public let time: String
    /// The event's JSON object, written once when the event is made: every subscriber's answer carries these same
    /// bytes (an emit answering 10,000 waiting polls built and wrote a tree of the event 10,000 times).
    public let encoded: [UInt8]

    public convenience init(
        seq: Int, type: EventType, location: Location, parameters: PathParameters, extra: JSONValue, time: String
    ) {
        self.init(
            seq: seq, type: type, location: location, parameters: parameters, extra: extra, time: time,
            encoded: Event.encoding(
                seq: seq, type: type, location: location, parameters: parameters, extra: extra, time: time))
    }

    /// The event's JSON object.
    private static func encoding(
        seq: Int, type: EventType, location: Location, parameters: PathParameters, extra: JSONValue, time: String
    ) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("seq")
        writer.int(seq)
        writer.key("name")
        writer.string(type.name)
        writer.key("pattern")
        writer.string(type.pattern.description)
        writer.key("location")
        writer.string(location.description)
        writer.key("params")
        parameters.write(to: &writer)
        writer.key("query")
        location.query.writeMap(to: &writer)
        writer.key("extra")
        writer.value(extra)
        writer.key("time")
        writer.string(time)
        writer.endObject()
        return writer.finish()
    }

    /// The event a store kept as ``encoded`` (the embedded store's event log): its bytes are kept as they are, so a
    /// restarted service answers with the same bytes; the other members are read back from them.
    public static func restoring(_ encoded: [UInt8]) throws -> Event {
        let value = try JSONParser.parse(encoded, maxDepth: JSONParser.storedMaxDepth)
        guard case .int(let seq)? = value["seq"], case .string(let patternText)? = value["pattern"],
            case .string(let locationText)? = value["location"], case .string(let time)? = value["time"]
        else { throw LinkError(.internal, "A kept event is not an event") }
        let pattern = try Pattern(patternText)
        let named = EventType(pattern: pattern, name: value["name"]?.stringValue)
        let type = EventType.builtIn.first { $0.pattern == pattern && $0.name == named.name } ?? named
        // Subscribers receive the bytes: a location that does not read back (none should) costs only the members.
        let location = try? Location(locationText)
        return Event(
            seq: seq, type: type, location: location ?? Location(segments: []),
            parameters: location.map { pattern.parameters(in: $0.segments) } ?? PathParameters(),
            extra: value["extra"] ?? .null, time: time, encoded: encoded)
    }

    private init(
        seq: Int, type: EventType, location: Location, parameters: PathParameters, extra: JSONValue, time: String,
        encoded: [UInt8]
    ) {
        self.seq = seq
        self.type = type
        self.location = location
        self.parameters = parameters
        self.extra = extra
        self.time = time
        self.encoded = encoded
    }

    /// `{"seq", "name", "pattern", "location", "params", "query", "extra", "time"}`.
    public func json() -> JSONValue {
        JSONValue(writtenBy: { $0.encoded(encoded) })
    }

    /// Events are equal when they read the same: their bytes hold every member.
    public static func == (lhs: Event, rhs: Event) -> Bool {
        lhs === rhs || lhs.encoded == rhs.encoded
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(encoded)
    }
}

/// The answer to a poll: the queued events newer than `after`, the cursor to acknowledge them with, and how
/// many events the bounded queue dropped since the last answer.
public struct PollResult: Sendable, Hashable {
    /// The subscription's queue as it was (shared, not copied: the queue copies itself only if it changes while
    /// an answer still holds it, so an emit answering thousands of polls allocates no array per poll).
    public var events: Deque<Event>
    public var cursor: Int
    public var missed: Int

    /// `{"events": […], "cursor", "missed"}`, each event's bytes as written when it was made.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("events")
        writer.beginArray()
        for event in events { writer.encoded(event.encoded) }
        writer.endArray()
        writer.key("cursor")
        writer.int(cursor)
        writer.key("missed")
        writer.int(missed)
        writer.endObject()
    }

    public func json() -> JSONValue {
        JSONValue(writtenBy: write)
    }

    /// Whether it carries events or a dropped count.
    public var hasNews: Bool { !events.isEmpty || missed > 0 }
}

/// The answer to an emit.
public struct EmitResult: Sendable, Hashable {
    public var seq: Int
    /// Subscriptions that received the event.
    public var delivered: Int
    /// The matched event types, best first, by name or by pattern when unnamed.
    public var matched: [String]
    /// The events the subscriptions received, one per matched type that reached one, best first (what a store keeps
    /// to queue them again after a restart). Not part of the answer, nor of equality.
    public var reached: [Event]

    public init(seq: Int, delivered: Int, matched: [String], reached: [Event] = []) {
        self.seq = seq
        self.delivered = delivered
        self.matched = matched
        self.reached = reached
    }

    public static func == (a: EmitResult, b: EmitResult) -> Bool {
        a.seq == b.seq && a.delivered == b.delivered && a.matched == b.matched
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seq)
        hasher.combine(delivered)
        hasher.combine(matched)
    }

    public func json() -> JSONValue {
        ["seq": .int(seq), "delivered": .int(delivered), "matched": .array(matched.map(JSONValue.string))]
    }
}
