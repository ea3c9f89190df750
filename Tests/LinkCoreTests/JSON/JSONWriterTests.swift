import LinkCore
import LinkTestSupport
import Testing

@Suite struct JSONWriterTests {
    @Test func writesNestedContainersWithCommas() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a")
        writer.int(1)
        writer.key("b")
        writer.beginArray()
        writer.string("x")
        writer.null()
        writer.beginObject()
        writer.endObject()
        writer.beginArray()
        writer.endArray()
        writer.endArray()
        writer.key("c")
        writer.string(nil as String?)
        writer.key(string: "d\"")
        writer.value(["k": [true, 2.5]])
        writer.key("e")
        writer.stringObject([("p", "1"), ("q", "é\n")])
        writer.endObject()
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == #"{"a":1,"b":["x",null,{},[]],"c":null,"d\"":{"k":[true,2.5]},"e":{"p":"1","q":"é\n"}}"#)
    }
}

/// The writer's own buffer: it grows past its first capacity; strings, numbers and values are written as JSON
/// (RFC 8259) spells them, checked against a plain escaper written here byte by byte and read back by the parser.
@Suite struct JSONWriterEncodingTests {
    static let awkward: [String] = [
        "", "plain", "quote \" and backslash \\", "\u{0}\u{1}\u{1F}\t\n\r", "é 漢字 🙂",
        String(repeating: "\"", count: 300),
        String(repeating: "x", count: 5_000) + "\n", "\u{7F}/</script>",
    ]

    /// The JSON literal of `text`, escaped byte by byte: `"` and `\` escaped, `\n`, `\r`, `\t` short, other
    /// control characters `\u00xx`, everything else as is.
    static func expected(_ text: String) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case 0x22: output += Array(#"\""#.utf8)
            case 0x5C: output += Array(#"\\"#.utf8)
            case 0x0A: output += Array(#"\n"#.utf8)
            case 0x0D: output += Array(#"\r"#.utf8)
            case 0x09: output += Array(#"\t"#.utf8)
            case ..<0x20: output += Array(("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
        return output
    }

    @Test func stringsAndKeysAreEscaped() throws {
        for text in Self.awkward {
            var writer = JSONWriter(capacity: 1)
            writer.beginObject()
            writer.key(string: text)
            writer.string(text)
            writer.endObject()
            let bytes = writer.bytes
            #expect(
                bytes == [UInt8(ascii: "{")] + Self.expected(text) + [UInt8(ascii: ":")] + Self.expected(text) + [
                    UInt8(ascii: "}")
                ])
            #expect(try JSONParser.parse(bytes) == .object([text: .string(text)]))
        }
        #expect(Self.expected("\u{0}\u{1F}\"\\\n") == Array(#""\u0000\u001f\"\\\n""#.utf8))
    }

    /// Escapes at every position of the eight-byte scan, next to multi-byte characters and bytes just outside the
    /// escaped ranges (space, `!`, `#`, `[`, `]`, DEL).
    @Test func randomStringsAreEscaped() throws {
        var generator = SplitMix64(seed: 0x4A53_4F4E)
        let alphabet: [String] = [
            "a", "\"", "\\", "\n", "\u{1}", "\u{1F}", " ", "!", "#", "[", "]", "\u{7F}", "é", "🙂",
        ]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }.joined()
            var writer = JSONWriter(capacity: 1)
            writer.string(text)
            #expect(writer.bytes == Self.expected(text), "\(Array(text.utf8))")
            #expect(try JSONParser.parse(writer.bytes) == .string(text))
            // The same text handed over as bytes, whole and as a slice that does not start at zero.
            var fromBytes = JSONWriter(capacity: 1)
            fromBytes.beginArray()
            fromBytes.string(utf8: Array(text.utf8)[...])
            fromBytes.string(utf8: Array(("ab" + text).utf8)[2...])
            fromBytes.endArray()
            #expect(try JSONParser.parse(fromBytes.bytes) == .array([.string(text), .string(text)]))
        }
    }

    @Test func integersAtTheEdges() {
        let numbers = [0, 7, -7, 10, 99, 100, -100, Int.max, Int.min, 1_234_567_890]
        var writer = JSONWriter(capacity: 1)
        writer.beginArray()
        for number in numbers { writer.int(number) }
        writer.endArray()
        #expect(
            String(decoding: writer.bytes, as: UTF8.self) == "[" + numbers.map(String.init).joined(separator: ",") + "]"
        )
    }

    @Test func anyValue() throws {
        let value = try JSONParser.parse(
            Array(#"{"a":[1,-2.5,1e300,true,false,null,"s\u0001"],"b":{"c":{}},"d":[],"e":0.1,"f":2.0}"#.utf8))
        var writer = JSONWriter(capacity: 1)
        writer.value(value)
        writer.value(.double(.nan))
        writer.value(.double(-.infinity))
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == #"{"a":[1,-2.5,1e+300,true,false,null,"s\u0001"],"b":{"c":{}},"d":[],"e":0.1,"f":2.0},null,null"#)
        #expect(value.encoded() == Array(writer.bytes.dropLast(10)))
    }

    @Test func finishingAppendsTheSuffix() {
        var writer = JSONWriter(capacity: 1)
        writer.string(String(repeating: "y", count: 100))
        let bytes = writer.finish(appending: UInt8(ascii: "\n"))
        #expect(bytes == Array(("\"" + String(repeating: "y", count: 100) + "\"\n").utf8))
        #expect(JSONWriter().finish().isEmpty)
    }
}
