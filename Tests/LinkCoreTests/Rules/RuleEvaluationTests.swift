import LinkCore
import Testing

@Suite struct RuleEvaluationTests {
    /// Exact results, integer and double cases kept apart.
    @Test(arguments: [
        (#"{"+": [1, 2]}"#, JSONValue.int(3)),
        (#"{"/": [1, 2]}"#, .double(0.5)),
        (#"{"/": [4, 2]}"#, .int(2)),
        (#"{"/": 4}"#, .double(0.25)),
        (#"{"*": [1.5, 2]}"#, .double(3)),
        (#"{"+": ["1", true, null]}"#, .int(2)),
        (#"{"+": "1.5"}"#, .double(1.5)),
        (#"{"+": " 0x1F "}"#, .int(31)),
        (#"{"-": [10, 2.5]}"#, .double(7.5)),
        (#"{"%": [-8, 3]}"#, .int(-2)),
        (#"{"%": [7.5, 2]}"#, .double(1.5)),
        (#"{"+": [9223372036854775807, 1]}"#, .double(9_223_372_036_854_775_808)),
        (#"{"*": [9223372036854775807, 2]}"#, .double(18_446_744_073_709_551_616)),
        (#"{"max": [1, 2.5, 2]}"#, .double(2.5)),
        (#"{"min": [1, 2.5]}"#, .int(1)),
        (#"{"cat": [1.5, 2.0, null, [1, null, "a"], true]}"#, .string("1.521,,atrue")),
        (#"{"substr": ["héllo 👋!", -2, 1]}"#, .string("👋")),
        (#"{"in": ["é", "café"]}"#, .bool(true)),
        (#"{"in": [1, [1.0, 2]]}"#, .bool(true)),
        (#"{"in": ["1", [1, 2]]}"#, .bool(false)),
        (#"{"===": [{"preserve": [1, {"a": 1, "b": 2}]}, {"preserve": [1.0, {"b": 2, "a": 1}]}]}"#, .bool(true)),
        (#"{"==": [null, 0]}"#, .bool(true)),
        (#"{"==": [null, "US"]}"#, .bool(false)),
        (#"{"!=": [null, "US"]}"#, .bool(true)),
        (#"{"<": [null, "abc"]}"#, .bool(false)),
        (#"{">=": [true, "abc"]}"#, .bool(false)),
        (#"{"==": [true, "1"]}"#, .bool(true)),
        (#"{"<": ["10", 9]}"#, .bool(false)),
        (#"{"<": ["10", "9"]}"#, .bool(true)),
        (
            #"{"cat": [0.1, 100.0, " ", 1e-7, " ", 0.00001, " ", 1e21, " ", -2.5, " ", 1e16]}"#,
            .string("0.1100 1e-7 0.00001 1e+21 -2.5 10000000000000000")
        ),
        (#"{"<": [1, 2, 3]}"#, .bool(true)),
        (#"{"<": ["a", "b"]}"#, .bool(true)),
        (#"{"merge": [[1], 2, [[3]]]}"#, .array([1, 2, .array([3])])),
        (#"{"reduce": [[], {"+": [{"var": "accumulator"}, 1]}]}"#, .null),
        (#"{"preserve": {"var": "x"}}"#, .object(["var": "x"])),
    ])
    func exactResults(rule: String, expected: JSONValue) throws {
        #expect(try RuleTestSupport.evaluate(rule) == expected)
    }

    @Test(arguments: [
        (#"{"context": {"loggedIn": true}}"#, false),
        (#"{"context": {"loggedIn": false}}"#, true),
        (#"{"context": {}}"#, true),
        ("null", true),
    ])
    func typicalGuard(data: String, expected: Bool) throws {
        #expect(try RuleTestSupport.evaluate(#"{"!": {"var": "context.loggedIn"}}"#, data: data) == .bool(expected))
    }

    @Test(arguments: [
        (#"{"var": "a.1.b"}"#, #"{"a": [0, {"b": "x"}]}"#, JSONValue.string("x")),
        (#"{"var": ["a", "fallback"]}"#, #"{"a": null}"#, .null),
        (#"{"var": ["b", "fallback"]}"#, #"{"a": null}"#, .string("fallback")),
        (#"{"var": [{"cat": ["a", ".", "b"]}]}"#, #"{"a": {"b": 7}}"#, .int(7)),
        (#"{"val": ["a.b"]}"#, #"{"a.b": 1, "a": {"b": 2}}"#, .int(1)),
        (#"{"exists": ["a", "b"]}"#, #"{"a": {"b": null}}"#, .bool(true)),
        (#"{"missing": ["a", "b.c", "d"]}"#, #"{"a": "", "b": {"c": 0}}"#, .array(["a", "d"])),
        (#"{"missing_some": [1, ["a", "b"]]}"#, #"{"b": 1}"#, .array([])),
        (
            #"{"map": [{"var": "xs"}, {"+": [{"val": []}, {"val": [[1], "index"]}, {"val": [[2], "k"]}]}]}"#,
            #"{"xs": [10, 20], "k": 100}"#, .array([110, 121])
        ),
        (
            #"{"reduce": [{"var": "xs"}, {"+": [{"val": "accumulator"}, {"val": ["current", "n"]}]}, 0]}"#,
            #"{"xs": [{"n": 1}, {"n": 2}]}"#, .int(3)
        ),
        (
            #"{"try": [{"throw": {"preserve": {"type": "Custom", "code": 7}}}, {"cat": ["caught ", {"var": "type"}]}]}"#,
            "{}",
            .string("caught Custom")
        ),
        (#"{"try": [{"/": [1, 0]}, {"val": [[2], "fallback"]}]}"#, #"{"fallback": 5}"#, .int(5)),
        (#"{"==": [{"var": "country"}, "US"]}"#, "{}", .bool(false)),
        (#"{">=": [{"var": "app.version"}, 3]}"#, #"{"app": {"version": "3.1"}}"#, .bool(true)),
        (#"{"filter": [{"var": "xs"}, {">": [{"var": ""}, 1]}]}"#, #"{"xs": [1, 2, 3]}"#, .array([2, 3])),
    ])
    func dataAccessAndScopes(rule: String, data: String, expected: JSONValue) throws {
        #expect(try RuleTestSupport.evaluate(rule, data: data) == expected)
    }

    @Test(arguments: [
        (#"{"/": [1, 0]}"#, "null", RuleError.notANumberType),
        (#"{"+": ["abc", 1]}"#, "null", RuleError.notANumberType),
        (#"{"<": [[1], 2]}"#, "null", RuleError.notANumberType),
        (#"{"==": ["2024-01-01", 2024]}"#, "null", RuleError.notANumberType),
        (#"{"max": ["1"]}"#, "null", RuleError.invalidArgumentsType),
        (#"{"%": {"var": "xs"}}"#, #"{"xs": [1]}"#, RuleError.invalidArgumentsType),
        (#"{"all": [{"var": "missing"}, true]}"#, "{}", RuleError.invalidArgumentsType),
        (#"{"map": [{"var": "x"}, 1]}"#, #"{"x": 5}"#, RuleError.invalidArgumentsType),
        (#"{"throw": "Out of stock"}"#, "null", JSONValue.string("Out of stock")),
        (#"{"throw": {"var": "e"}}"#, #"{"e": {"type": "Teapot"}}"#, JSONValue.string("Teapot")),
        (#"{"try": [{"throw": "A"}, {"throw": "B"}]}"#, "null", JSONValue.string("B")),
    ])
    func evaluationErrors(rule: String, data: String, type: JSONValue) throws {
        let error = try #require(try RuleTestSupport.evaluationError(rule, data: data))
        #expect(error.type == type)
        #expect(!error.message.isEmpty)
    }

    @Test func lazinessSkipsUnreachedBranches() throws {
        let rules = [
            #"{"if": [true, 1, {"throw": "no"}]}"#,
            #"{"and": [false, {"throw": "no"}]}"#,
            #"{"or": [1, {"throw": "no"}]}"#,
            #"{"??": [0, {"throw": "no"}]}"#,
            #"{"<": [2, 1, {"throw": "no"}]}"#,
            #"{"some": [[1, 2], {"if": [{"==": [{"var": ""}, 1]}, true, {"throw": "no"}]}]}"#,
        ]
        for rule in rules {
            #expect(try RuleTestSupport.evaluationError(rule) == nil, "\(rule)")
        }
    }

    @Test func evaluatesConcurrently() async throws {
        let rule = try Rule(RuleTestSupport.json(#"{"map": [{"var": "xs"}, {"*": [{"var": ""}, 2]}]}"#))
        let results = await withTaskGroup(of: JSONValue?.self) { group in
            for n in 0..<32 {
                group.addTask { try? rule.evaluate(.object(["xs": .array([.int(n)])])) }
            }
            var collected: [JSONValue?] = []
            for await result in group { collected.append(result) }
            return collected
        }
        #expect(Set(results.compactMap { $0 }).count == 32)
    }
}
