extension JSONValue {
    /// Appends the compact JSON text of this value to `output`.
    ///
    /// Non-finite doubles (which JSON cannot represent) are written as `null`.
    public func encode(into output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let b): output.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): output.append(contentsOf: String(i).utf8)
        case .double(let d): JSONValue.encodeDouble(d, into: &output)
        case .string(let s): JSONValue.encodeString(s, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                element.encode(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                JSONValue.encodeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                value.encode(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The compact JSON text of this value as UTF-8 bytes.
    public func encoded() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        encode(into: &output)
        return output
    }

    /// The compact JSON text of this value.
    public func encodedString() -> String { String(decoding: encoded(), as: UTF8.self) }

    /// Writes a double so that it reads back as a double (`2.0`, not `2`), `null` when not finite.
    static func encodeDouble(_ d: Double, into output: inout [UInt8]) {
        guard d.isFinite else {
            output.append(contentsOf: "null".utf8)
            return
        }
        output.append(contentsOf: d.description.utf8)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes `s` as a JSON string literal, escaping quotes, backslashes and control characters.
    public static func encodeString(_ s: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var runStart = 0
            for i in 0..<utf8.count {
                let byte = utf8[i]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                runStart = i + 1
                switch byte {
                case 0x22: output.append(contentsOf: [0x5C, 0x22])
                case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
