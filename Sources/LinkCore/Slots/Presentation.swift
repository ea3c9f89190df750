/// One presentation competing for a slot (API.md §11): what a sender asked to show, with its priority and its
/// lifetime in wall-clock milliseconds since the Unix epoch.
public struct Presentation: Sendable, Hashable {
    public var id: String
    public var priority: Int
    public var payload: JSONValue
    /// When it started showing.
    public var since: Int64
    /// When it ends by itself; it is over at exactly this instant.
    public var expires: Int64

    public init(id: String, priority: Int, payload: JSONValue, since: Int64, expires: Int64) {
        self.id = id
        self.priority = priority
        self.payload = payload
        self.since = since
        self.expires = expires
    }

    /// Whether it is over at `now`.
    public func isExpired(at now: Int64) -> Bool { now >= expires }

    /// `{"id", "priority"}`, as a present answer names the replaced or the current one.
    public func summary() -> JSONValue {
        ["id": .string(id), "priority": .int(priority)]
    }

    /// `{"id", "priority", "payload", "since", "expires"}` with RFC 3339 UTC times.
    public func json() -> JSONValue {
        [
            "id": .string(id), "priority": .int(priority), "payload": payload,
            "since": .string(UTCCalendar.rfc3339(milliseconds: since)),
            "expires": .string(UTCCalendar.rfc3339(milliseconds: expires)),
        ]
    }

    /// The syntax of slot names and presentation ids: `[A-Za-z0-9_.:-]{1,128}`.
    public static func isValidName(_ text: String) -> Bool {
        let bytes = text.utf8
        guard (1...128).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"),
                UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }
}
