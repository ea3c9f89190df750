import LinkCore
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

/// The writer's own buffer: it grows past its first capacity, and writes strings, numbers and values exactly as
/// `JSONValue.encode(into:)` does.
@Suite struct JSONWriterEncodingTests {
    static let awkward: [String] = [
        "", "plain", "quote \" and backslash \\", "\u{0}\u{1}\u{1F}\t\n\r", "é 漢字 🙂",
        String(repeating: "\"", count: 300),
        String(repeating: "x", count: 5_000) + "\n", "\u{7F}/</script>",
    ]

    @Test func stringsAndKeysAreEscapedAsJSONValueDoes() {
        for text in Self.awkward {
            var writer = JSONWriter(capacity: 1)
            writer.beginObject()
            writer.key(string: text)
            writer.string(text)
            writer.endObject()
            #expect(writer.bytes == JSONValue.object([text: .string(text)]).encoded())
        }
    }

    /// Escapes at every position of the eight-byte scan, next to multi-byte characters and bytes just outside the
    /// escaped ranges (space, `!`, `#`, `[`, `]`, DEL).
    @Test func randomStringsAreEscapedAsJSONValueDoes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [String] = [
            "a", "\"", "\\", "\n", "\u{1}", "\u{1F}", " ", "!", "#", "[", "]", "\u{7F}", "é", "🙂",
        ]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }.joined()
            var writer = JSONWriter(capacity: 1)
            writer.string(text)
            #expect(writer.bytes == JSONValue.string(text).encoded(), "\(Array(text.utf8))")
        }
    }

    @Test func integersAtTheEdges() {
        let numbers = [0, 7, -7, 10, 99, 100, -100, Int.max, Int.min, 1_234_567_890]
        var writer = JSONWriter(capacity: 1)
        writer.beginArray()
        for number in numbers { writer.int(number) }
        writer.endArray()
        #expect(writer.bytes == JSONValue.array(numbers.map(JSONValue.int)).encoded())
    }

    @Test func anyValueAsJSONValueEncodesIt() throws {
        let value = try JSONParser.parse(
            Array(#"{"a":[1,-2.5,1e300,true,false,null,"s\u0001"],"b":{"c":{}},"d":[],"e":0.1}"#.utf8))
        var writer = JSONWriter(capacity: 1)
        writer.value(value)
        writer.value(.double(.nan))
        #expect(writer.bytes == value.encoded() + Array(",null".utf8))
    }

    @Test func finishingAppendsTheSuffix() {
        var writer = JSONWriter(capacity: 1)
        writer.string(String(repeating: "y", count: 100))
        let bytes = writer.finish(appending: UInt8(ascii: "\n"))
        #expect(bytes == Array(("\"" + String(repeating: "y", count: 100) + "\"\n").utf8))
    }
}
