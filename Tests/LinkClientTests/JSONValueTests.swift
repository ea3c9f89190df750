import Foundation
import LinkClient
import Testing

/// `JSONValue`'s numbers: whole numbers exact over 64 bits, the two number cases equal as numbers.
@Suite struct JSONValueTests {
    static func decoded(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    static func encoded(_ value: JSONValue) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    /// 2^53 + 1 is the first whole number a `Double` cannot hold: it was read as 2^53.
    @Test func wholeNumbersAreExactOver64Bits() throws {
        for text in ["9007199254740993", "-9007199254740993", "9223372036854775807", "-9223372036854775808", "0"] {
            let value = try Self.decoded(text)
            #expect(value == .integer(Int64(text)!))
            #expect(value.integerValue == Int64(text)!)
            #expect(try Self.encoded(value) == text)
        }
        let nested = try Self.decoded(#"{"ids":[9007199254740993,1]}"#)
        #expect(nested["ids"]?[0]?.integerValue == 9_007_199_254_740_993)
        #expect(nested["ids"]?[0] != .integer(9_007_199_254_740_992))
    }

    @Test func otherNumbersAreTheNearestDouble() throws {
        #expect(try Self.decoded("1.5") == .number(1.5))
        #expect(try Self.decoded("1.5").integerValue == nil)
        #expect(try Self.decoded("-2.5e-3").numberValue == -0.0025)
        // Past 64 bits (the service refuses such an integer; another producer may write one).
        #expect(try Self.decoded("18446744073709551616").numberValue == 18_446_744_073_709_551_616)
        #expect(try Self.encoded(.number(1.5)) == "1.5")
        // Whole numbers written with a fraction or an exponent are the same numbers, whichever case holds them.
        #expect(try Self.decoded("1.0") == .integer(1))
        #expect(try Self.decoded("1e2").integerValue == 100)
        #expect(try Self.decoded("-0") == .number(0))
        // A whole `Double` goes out without a fraction, as before.
        #expect(try Self.encoded(.number(42)) == "42")
    }

    @Test func theTwoNumberCasesCompareAndHashAsNumbers() {
        #expect(JSONValue.integer(3) == .number(3))
        #expect(JSONValue.number(3) == .integer(3))
        #expect(JSONValue.integer(0) == .number(-0.0))
        #expect(JSONValue.integer(3) != .number(3.5))
        #expect(JSONValue.integer(9_007_199_254_740_993) != .number(9_007_199_254_740_992))
        #expect(JSONValue.integer(1) != .bool(true))
        #expect(Set<JSONValue>([.integer(3), .number(3), .number(-0.0), .integer(0)]).count == 2)
        #expect(Set<JSONValue>([["n": .integer(7)], ["n": .number(7)]]).count == 1)
        // Literals: an integer literal is an integer, a float literal a number.
        let literal: JSONValue = ["id": 42, "ratio": 0.5]
        #expect(literal == .object(["id": .integer(42), "ratio": .number(0.5)]))
        #expect(JSONValue.integer(9_007_199_254_740_993).numberValue == 9_007_199_254_740_992)
        #expect(JSONValue.number(4).integerValue == 4)
        #expect(JSONValue.string("4").integerValue == nil)
    }

    /// An app's own type round-trips through a value with an exact 64-bit id.
    @Test func appTypesKeepTheirIntegers() throws {
        struct Destination: Codable, Equatable {
            let screen: String
            let id: Int64
        }
        let destination = Destination(screen: "Post", id: 9_007_199_254_740_993)
        let value = try JSONValue(encoding: destination)
        #expect(value["id"] == .integer(9_007_199_254_740_993))
        #expect(try value.decode(Destination.self) == destination)
    }
}
