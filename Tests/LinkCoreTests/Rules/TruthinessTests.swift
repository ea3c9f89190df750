import LinkCore
import Testing

@Suite struct TruthinessTests {
    static let table: [(String, Bool)] = [
        ("null", false),
        ("false", false),
        ("true", true),
        ("0", false),
        ("-0", false),
        ("1", true),
        ("-1", true),
        ("0.0", false),
        ("0.5", true),
        ("\"\"", false),
        ("\"0\"", true),
        ("\"false\"", true),
        ("\" \"", true),
        ("[]", false),
        ("[0]", true),
        ("[[]]", true),
        ("{}", true),
        ("{\"a\": 0}", true),
    ]

    @Test(arguments: table)
    func isTruthy(value: String, expected: Bool) throws {
        #expect(try RuleTestSupport.json(value).isTruthy == expected)
    }

    @Test(arguments: table)
    func notOperatorsAgreeWithIsTruthy(value: String, expected: Bool) throws {
        let literal = "{\"preserve\": \(value)}"
        #expect(try RuleTestSupport.evaluate("{\"!!\": [\(literal)]}") == .bool(expected))
        #expect(try RuleTestSupport.evaluate("{\"!\": [\(literal)]}") == .bool(!expected))
        #expect(
            try RuleTestSupport.evaluate("{\"if\": [\(literal), \"yes\", \"no\"]}") == .string(expected ? "yes" : "no"))
    }

    @Test func nonFiniteDoublesAreFalsyWhenNaN() {
        #expect(!JSONValue.double(.nan).isTruthy)
        #expect(JSONValue.double(.infinity).isTruthy)
    }
}
