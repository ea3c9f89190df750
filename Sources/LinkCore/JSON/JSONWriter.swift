/// Writes compact JSON straight into bytes, for hot responses that should not build a ``JSONValue`` tree first.
///
/// Commas are placed automatically: call ``key(_:)`` before each member value inside an object.
///
/// The bytes go into a ``ByteOutput`` (a buffer the writer owns and grows, not an `Array`; noncopyable for that).
public struct JSONWriter: ~Copyable {
    private var output: ByteOutput
    /// Whether the next value or key is the first in its container (so no comma precedes it).
    private var atStart = true

    public init(capacity: Int = 512) {
        output = ByteOutput(capacity: capacity)
    }

    /// The bytes written so far.
    public var bytes: [UInt8] { output.bytes }

    /// The bytes written, then `suffix` if given (a response's final newline), in one new array.
    public consuming func finish(appending suffix: UInt8? = nil) -> [UInt8] {
        output.finish(appending: suffix)
    }

    private mutating func separate() {
        if !atStart { output.append(UInt8(ascii: ",")) }
        atStart = false
    }

    // MARK: JSON

    public mutating func beginObject() {
        separate()
        output.append(UInt8(ascii: "{"))
        atStart = true
    }

    public mutating func endObject() {
        output.append(UInt8(ascii: "}"))
        atStart = false
    }

    public mutating func beginArray() {
        separate()
        output.append(UInt8(ascii: "["))
        atStart = true
    }

    public mutating func endArray() {
        output.append(UInt8(ascii: "]"))
        atStart = false
    }

    /// A constant member key that needs no escaping (letters, digits, `_`, `-`), copied without scanning; the
    /// next call writes its value.
    public mutating func key(_ key: StaticString) {
        let name = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        assert(name.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }, "constant keys must not need escaping")
        output.reserve(name.count + 4)
        if !atStart { output.appendReserved(UInt8(ascii: ",")) }
        output.appendReserved(UInt8(ascii: "\""))
        output.appendReserved(name)
        output.appendReserved(UInt8(ascii: "\""))
        output.appendReserved(UInt8(ascii: ":"))
        atStart = true
    }

    /// A member key computed at run time (escaped as needed); the next call writes its value.
    public mutating func key(string key: String) {
        separate()
        quoted(key)
        output.append(UInt8(ascii: ":"))
        atStart = true
    }

    public mutating func string(_ value: String) {
        separate()
        quoted(value)
    }

    /// UTF-8 bytes as a string, escaped as ``string(_:)`` escapes (for text already encoded into bytes).
    public mutating func string(utf8 bytes: ArraySlice<UInt8>) {
        separate()
        bytes.withUnsafeBufferPointer { quoted(utf8: $0) }
    }

    /// A string, or `null` when `nil`.
    public mutating func string(_ value: String?) {
        guard let value else { return null() }
        string(value)
    }

    public mutating func int(_ value: Int) {
        separate()
        // Digits written backwards into a scratch area, then copied: no `String` per number.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var magnitude = value.magnitude
            var start = scratch.count
            repeat {
                start -= 1
                scratch[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                scratch[start] = UInt8(ascii: "-")
            }
            let written = UnsafeRawBufferPointer(rebasing: scratch[start...]).assumingMemoryBound(to: UInt8.self)
            output.append(written)
        }
    }

    public mutating func null() {
        separate()
        output.append("null")
    }

    /// Any JSON value (non-finite doubles, which JSON cannot represent, as `null`; a double so that it reads back as
    /// a double, `2.0` not `2`).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag):
            separate()
            output.append(flag ? "true" : "false")
        case .int(let number): int(number)
        case .double(let number):
            guard number.isFinite else { return null() }
            separate()
            number.description.withUTF8Bytes { output.append($0) }
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for (name, member) in object {
                key(string: name)
                self.value(member)
            }
            endObject()
        }
    }

    /// A value already written by a `JSONWriter` (one complete value, such as an object), appended as it is.
    public mutating func encoded(_ json: [UInt8]) {
        separate()
        json.withUnsafeBufferPointer { output.append($0) }
    }

    /// Members already written by a `JSONWriter` (`"key":value`, comma-separated), appended as they are inside the
    /// object being written: a route's constant part of a resolve answer (``RouteAnswerParts``).
    public mutating func members(_ json: UnsafeBufferPointer<UInt8>) {
        guard !json.isEmpty else { return }
        separate()
        output.append(json)
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

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// `text` as a JSON string literal: `"`, `\`, and control characters escaped (`\n`, `\r`, `\t`, else `\u00XX`),
    /// everything else as is.
    private mutating func quoted(_ text: String) {
        text.withUTF8Bytes { quoted(utf8: $0) }
    }

    /// ``quoted(_:)`` of text already in UTF-8.
    private mutating func quoted(utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = JSONWriter.firstEscaped(utf8)
        // Room for the text up to its first escape and both quotes; each escape reserves more.
        output.reserve(utf8.count + 2)
        output.appendReserved(UInt8(ascii: "\""))
        guard runStart < utf8.count else {
            // Nothing to escape (nearly every string): one copy.
            output.appendReserved(utf8)
            output.appendReserved(UInt8(ascii: "\""))
            return
        }
        output.appendReserved(UnsafeBufferPointer(rebasing: utf8[0..<runStart]))
        for position in runStart..<utf8.count {
            let byte = utf8[position]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            output.reserve(6 + utf8.count - runStart)
            output.appendReserved(UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
            runStart = position + 1
            output.appendReserved(UInt8(ascii: "\\"))
            switch byte {
            case 0x22: output.appendReserved(0x22)
            case 0x5C: output.appendReserved(0x5C)
            case 0x0A: output.appendReserved(UInt8(ascii: "n"))
            case 0x0D: output.appendReserved(UInt8(ascii: "r"))
            case 0x09: output.appendReserved(UInt8(ascii: "t"))
            default:
                output.appendReserved(UInt8(ascii: "u"))
                output.appendReserved(UInt8(ascii: "0"))
                output.appendReserved(UInt8(ascii: "0"))
                output.appendReserved(JSONWriter.hexDigits.utf8Start[Int(byte >> 4)])
                output.appendReserved(JSONWriter.hexDigits.utf8Start[Int(byte & 0x0F)])
            }
        }
        output.appendReserved(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        output.appendReserved(UInt8(ascii: "\""))
    }

    /// The position of the first byte of `utf8` that must be escaped (a control character, `"` or `\`), or its
    /// count.
    @inline(__always)
    private static func firstEscaped(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        ByteScan.firstIndex(
            in: utf8,
            mayStop: { ByteScan.control($0) | ByteScan.equal($0, 0x22) | ByteScan.equal($0, 0x5C) != 0 },
            stops: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C })
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
