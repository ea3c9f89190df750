/// Writes compact JSON straight into bytes, for hot responses that should not build a ``JSONValue`` tree first.
///
/// Commas are placed automatically: call ``key(_:)`` before each member value inside an object.
public struct JSONWriter {
    public private(set) var bytes: [UInt8]
    /// Whether the next value or key is the first in its container (so no comma precedes it).
    private var atStart = true

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    private mutating func separate() {
        if !atStart { bytes.append(UInt8(ascii: ",")) }
        atStart = false
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        atStart = true
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        atStart = false
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        atStart = true
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        atStart = false
    }

    /// An object member's key; the next call writes its value.
    public mutating func key(_ key: String) {
        separate()
        JSONValue.encodeString(key, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        atStart = true
    }

    public mutating func string(_ value: String) {
        separate()
        JSONValue.encodeString(value, into: &bytes)
    }

    /// A string, or `null` when `nil`.
    public mutating func string(_ value: String?) {
        guard let value else { return null() }
        string(value)
    }

    public mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Any JSON value.
    public mutating func value(_ value: JSONValue) {
        separate()
        value.encode(into: &bytes)
    }

    /// A `{"key": "value", …}` object of strings, in order.
    public mutating func stringObject(_ pairs: some Sequence<(String, String)>) {
        beginObject()
        for (name, value) in pairs {
            key(name)
            string(value)
        }
        endObject()
    }
}
