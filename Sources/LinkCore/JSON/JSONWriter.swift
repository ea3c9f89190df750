/// Writes compact JSON straight into bytes, for hot responses that should not build a ``JSONValue`` tree first.
///
/// Commas are placed automatically: call ``key(_:)`` before each member value inside an object.
///
/// The bytes go into a buffer the writer owns and grows itself (it is noncopyable for that): appending to an
/// `Array` checked its uniqueness and capacity on every byte and went through the generic `append(contentsOf:)` for
/// every key, ~90 instructions each, which was most of the cost of a resolve answer (docs/benchmarks.md).
public struct JSONWriter: ~Copyable {
    private var buffer: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// Whether the next value or key is the first in its container (so no comma precedes it).
    private var atStart = true

    public init(capacity: Int = 512) {
        self.capacity = max(capacity, 16)
        buffer = .allocate(capacity: self.capacity)
    }

    deinit {
        buffer.deallocate()
    }

    /// The bytes written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: buffer, count: count)) }

    /// The bytes written, then `suffix` if given (a response's final newline), in one new array.
    public consuming func finish(appending suffix: UInt8? = nil) -> [UInt8] {
        // Not `Array(unsafeUninitializedCapacity:)`: it looks up the array storage's generic type on every call
        // (~330 instructions); growing an empty array uses the type specialized for bytes.
        var array: [UInt8] = []
        array.reserveCapacity(count + 1)
        array.append(contentsOf: UnsafeBufferPointer(start: buffer, count: count))
        if let suffix { array.append(suffix) }
        return array
    }

    // MARK: Bytes

    /// Room for `more` bytes past the end.
    @inline(__always)
    private mutating func reserve(_ more: Int) {
        if count + more > capacity { grow(to: count + more) }
    }

    private mutating func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: buffer, count: count)
        buffer.deallocate()
        buffer = moved
        capacity = larger
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        reserve(1)
        buffer[count] = byte
        count += 1
    }

    /// Bytes for which room was reserved.
    @inline(__always)
    private mutating func putReserved(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        (buffer + count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    private mutating func put(_ text: StaticString) {
        let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        reserve(bytes.count)
        putReserved(bytes)
    }

    private mutating func separate() {
        if !atStart { put(UInt8(ascii: ",")) }
        atStart = false
    }

    // MARK: JSON

    public mutating func beginObject() {
        separate()
        put(UInt8(ascii: "{"))
        atStart = true
    }

    public mutating func endObject() {
        put(UInt8(ascii: "}"))
        atStart = false
    }

    public mutating func beginArray() {
        separate()
        put(UInt8(ascii: "["))
        atStart = true
    }

    public mutating func endArray() {
        put(UInt8(ascii: "]"))
        atStart = false
    }

    /// A constant member key that needs no escaping (letters, digits, `_`, `-`), copied without scanning; the
    /// next call writes its value.
    public mutating func key(_ key: StaticString) {
        let name = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        assert(name.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }, "constant keys must not need escaping")
        reserve(name.count + 4)
        if !atStart {
            buffer[count] = UInt8(ascii: ",")
            count += 1
        }
        buffer[count] = UInt8(ascii: "\"")
        count += 1
        putReserved(name)
        buffer[count] = UInt8(ascii: "\"")
        buffer[count + 1] = UInt8(ascii: ":")
        count += 2
        atStart = true
    }

    /// A member key computed at run time (escaped as needed); the next call writes its value.
    public mutating func key(string key: String) {
        separate()
        quoted(key)
        put(UInt8(ascii: ":"))
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
            reserve(written.count)
            putReserved(written)
        }
    }

    public mutating func null() {
        separate()
        put("null")
    }

    /// Any JSON value (non-finite doubles, which JSON cannot represent, as `null`; a double so that it reads back as
    /// a double, `2.0` not `2`).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag):
            separate()
            put(flag ? "true" : "false")
        case .int(let number): int(number)
        case .double(let number):
            guard number.isFinite else { return null() }
            separate()
            var text = number.description
            text.withUTF8 { utf8 in
                reserve(utf8.count)
                putReserved(utf8)
            }
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
        json.withUnsafeBufferPointer { bytes in
            reserve(bytes.count)
            putReserved(bytes)
        }
    }

    /// Members already written by a `JSONWriter` (`"key":value`, comma-separated), appended as they are inside the
    /// object being written: a route's constant part of a resolve answer (``RouteAnswerParts``).
    public mutating func members(_ json: UnsafeBufferPointer<UInt8>) {
        guard !json.isEmpty else { return }
        separate()
        reserve(json.count)
        putReserved(json)
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

    /// Whether any of the eight bytes of `word` is a control character, `"` or `\` (exact when it says no).
    @inline(__always)
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        // A byte below 0x20: subtracting 0x20 borrows into its high bit (bytes ≥ 0x80 are excluded by `~word`).
        let control = (word &- ones &* 0x20) & ~word & highBits
        // A byte equal to c: zero after xor with c, found the same way.
        let quoteXor = word ^ (ones &* 0x22)
        let quote = (quoteXor &- ones) & ~quoteXor & highBits
        let backslashXor = word ^ (ones &* 0x5C)
        let backslash = (backslashXor &- ones) & ~backslashXor & highBits
        return control | quote | backslash != 0
    }

    /// `text` as a JSON string literal: `"`, `\`, and control characters escaped (`\n`, `\r`, `\t`, else `\u00XX`),
    /// everything else as is.
    private mutating func quoted(_ text: String) {
        text.withUTF8Bytes { quoted(utf8: $0) }
    }

    /// ``quoted(_:)`` of text already in UTF-8.
    private mutating func quoted(utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = JSONWriter.firstEscaped(utf8)
        // Room for the text up to its first escape and both quotes; each escape reserves more.
        reserve(utf8.count + 2)
        buffer[count] = UInt8(ascii: "\"")
        count += 1
        guard runStart < utf8.count else {
            // Nothing to escape (nearly every string): one copy.
            putReserved(utf8)
            buffer[count] = UInt8(ascii: "\"")
            count += 1
            return
        }
        putReserved(UnsafeBufferPointer(rebasing: utf8[0..<runStart]))
        for position in runStart..<utf8.count {
            let byte = utf8[position]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            reserve(6 + utf8.count - runStart)
            putReserved(UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
            runStart = position + 1
            buffer[count] = UInt8(ascii: "\\")
            switch byte {
            case 0x22: buffer[count + 1] = 0x22
            case 0x5C: buffer[count + 1] = 0x5C
            case 0x0A: buffer[count + 1] = UInt8(ascii: "n")
            case 0x0D: buffer[count + 1] = UInt8(ascii: "r")
            case 0x09: buffer[count + 1] = UInt8(ascii: "t")
            default:
                buffer[count + 1] = UInt8(ascii: "u")
                buffer[count + 2] = UInt8(ascii: "0")
                buffer[count + 3] = UInt8(ascii: "0")
                buffer[count + 4] = JSONWriter.hexDigits.utf8Start[Int(byte >> 4)]
                buffer[count + 5] = JSONWriter.hexDigits.utf8Start[Int(byte & 0x0F)]
                count += 4
            }
            count += 2
        }
        putReserved(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        buffer[count] = UInt8(ascii: "\"")
        count += 1
    }

    /// The position of the first byte of `utf8` that must be escaped (a control character, `"` or `\`), or its
    /// count: eight bytes at a time while none of them does.
    private static func firstEscaped(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        var index = 0
        while index + 8 <= utf8.count,
            !mayNeedEscaping(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        {
            index += 8
        }
        while index < utf8.count {
            let byte = base[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return index }
            index += 1
        }
        return index
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
