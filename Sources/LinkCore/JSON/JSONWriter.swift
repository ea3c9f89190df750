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

    /// A constant member key that needs no escaping (letters, digits, `_`, `-`), copied without scanning; the
    /// next call writes its value.
    public mutating func key(_ key: StaticString) {
        assert(
            UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount).allSatisfy {
                $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C
            }, "constant keys must not need escaping")
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        atStart = true
    }

    /// A member key computed at run time (escaped as needed); the next call writes its value.
    public mutating func key(string key: String) {
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
            key(string: name)
            string(value)
        }
        endObject()
    }
}

extension JSONValue {
    /// The value `write` renders, for a caller that needs as a value an answer whose one rendering is written with a
    /// ``JSONWriter`` (the bytes are parsed back).
    public init(writtenBy write: (inout JSONWriter) -> Void) {
        var writer = JSONWriter()
        write(&writer)
        do {
            // Only values already parsed within the depth limit are written, inside a few levels of answer.
            self = try JSONParser.parse(writer.bytes, maxDepth: .max)
        } catch {
            preconditionFailure("JSONWriter wrote invalid JSON: \(error)")
        }
    }
}
