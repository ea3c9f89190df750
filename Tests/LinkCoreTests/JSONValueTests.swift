import LinkCore
import Testing

@Suite struct JSONParserTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("1", .int(1)),
        ("-0", .int(0)),
        ("1.0", .double(1.0)),
        ("1e2", .double(100)),
        ("-12.5E-1", .double(-1.25)),
        ("\"a\\u00e9\\n\"", .string("aé\n")),
        ("\"\\ud83d\\ude00\"", .string("😀")),
        ("\"清华\"", .string("清华")),
        ("[1, [2, {}]]", [1, [2, .object([:])]] as JSONValue),
        (" {\"b\": 1, \"a\": 2} ", ["b": 1, "a": 2] as JSONValue),
        ("9223372036854775807", .int(Int.max)),
        ("-9223372036854775808", .int(Int.min)),
        ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
        ("0.0e-999", .double(0)),
        ("5e-324", .double(.leastNonzeroMagnitude)),
    ])
    func parsesValidJSON(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test func keepsIntegersAndDoublesApart() throws {
        #expect(try JSONParser.parse("1") != JSONParser.parse("1.0"))
        #expect(try JSONParser.parse("true") != JSONParser.parse("1"))
    }

    @Test func keepsKeyOrderAndLastDuplicateWins() throws {
        let value = try JSONParser.parse(#"{"z": 1, "a": 2, "z": 3}"#)
        #expect(value.objectValue?.keys.elements == ["z", "a"])
        #expect(value["z"] == 3)
    }

    /// Files an operator writes refuse a repeated key, at the repeat, in objects of any depth and size; a key that
    /// differs only in case or escaping is another key or the same one as JSON reads it.
    @Test(arguments: [
        (#"{"z": 1, "a": 2, "z": 3}"#, "z", 17),
        (#"{"s": {"p": 1, "p": 2}}"#, "p", 15),
        (#"{"a\u0062": 1, "ab": 2}"#, "ab", 15),
        ("{" + (0..<20).map { "\"k\($0)\": 0, " }.joined() + #""k7": 1}"#, "k7", 191),
    ])
    func refusesARepeatedKeyWhenAsked(json: String, key: String, offset: Int) throws {
        #expect {
            try JSONParser.parse(json, duplicateKeys: .refused)
        } throws: { error in
            (error as? JSONParseError).map {
                $0.offset == offset && $0.reason == "duplicate key \"\(key)\"" && $0.kind == .duplicateKey
            } == true
        }
        // Read as before without the refusal: the last value wins.
        #expect((try? JSONParser.parse(json)) != nil)
        #expect(
            try JSONParser.parse(#"{"Z": 1, "z": 2, "s": {"z": 3}}"#, duplicateKeys: .refused).objectValue?.count == 3)
    }

    /// Past 16 members an object is built by hashing: order and repeats behave the same on both sides of that line.
    @Test(arguments: [3, 15, 16, 17, 40])
    func keepsKeyOrderAndLastDuplicateWinsInLargeObjects(members: Int) throws {
        // Every key twice, the second time with its value negated; then the first key again.
        let keys = (0..<members).map { "k\($0)" }
        let text =
            "{"
            + (keys.enumerated().map { "\"\($1)\": \($0)" } + keys.enumerated().map { "\"\($1)\": -\($0)" })
            .joined(separator: ", ") + ", \"k0\": 99}"
        let object = try #require(JSONParser.parse(text).objectValue)
        #expect(object.keys.elements == keys)
        #expect(object.values.elements == [99] + (1..<members).map { JSONValue.int(-$0) })
    }

    @Test(arguments: [
        "", "  ", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"abc", "\"\\x\"", "\"\t\"",
        "\"\\ud800\"", "\"\\udc00\"", "[1] 2", "NaN", "{'a': 1}", "+1",
        // Numbers that could not be kept as sent (an acknowledged write stores exactly what was sent).
        "9223372036854775808", "-9223372036854775809", "12345678901234567890", "1e999", "-1e999", "1e-400",
    ])
    func rejectsInvalidJSON(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test(arguments: [
        [0xFF] as [UInt8], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE6, 0xB8, 0x22],
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
    ])
    func rejectsInvalidUTF8(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
    }

    @Test func enforcesTheNestingLimit() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(tooDeep) }
        let deepObject = String(repeating: "{\"a\":", count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deepObject) }
    }
}

@Suite struct JSONEncoderTests {
    @Test(arguments: [
        (JSONValue.null, "null"),
        (.bool(true), "true"),
        (.int(-42), "-42"),
        (.double(2.0), "2.0"),
        (.double(0.5), "0.5"),
        (.double(.nan), "null"),
        (.string("a\"b\\c\n\u{01}é"), #""a\"b\\c\n\u0001é""#),
        (["b": 1, "a": [true, nil]] as JSONValue, #"{"b":1,"a":[true,null]}"#),
    ])
    func encodesCompactJSON(value: JSONValue, expected: String) {
        #expect(value.encodedString() == expected)
    }

    @Test func roundTrips() throws {
        let text = #"{"s":"清华 \"q\"","n":[1,2.5,-0.25,1e+100],"o":{"x":null,"t":false}}"#
        let value = try JSONParser.parse(text)
        #expect(try JSONParser.parse(value.encodedString()) == value)
    }
}
