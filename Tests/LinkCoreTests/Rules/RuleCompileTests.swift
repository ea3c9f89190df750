import LinkCore
import Testing

@Suite struct RuleCompileTests {
    @Test(arguments: [
        (#"{"frobnicate": [1, 2]}"#, "frobnicate"),
        (#"{"if": [{"nope": 1}, 1, 2]}"#, "nope"),
        (#"[1, {"map": [[1], {"VAR": ""}]}]"#, "VAR"),
        (#"{"var": {"log": "x"}}"#, "log"),
    ])
    func unknownOperatorIsAnInvalidRule(rule: String, name: String) throws {
        let error = try #require(try RuleTestSupport.compileError(rule))
        #expect(error.code == .invalidRule)
        #expect(error.details["type"] == "Unknown Operator")
        #expect(error.details["operator"] == .string(name))
    }

    @Test func objectWithSeveralKeysIsAnInvalidRule() throws {
        let error = try #require(try RuleTestSupport.compileError(#"{"var": "a", "val": "b"}"#))
        #expect(error.code == .invalidRule)
        #expect(error.details["type"] == "Unknown Operator")
    }

    @Test(arguments: [
        (#"{"and": true}"#, "and"),
        (#"{"or": {"var": "flags"}}"#, "or"),
        (#"{"if": "apple"}"#, "if"),
        (#"{"<": [1]}"#, "<"),
        (#"{"==": 1}"#, "=="),
        (#"{"===": {"preserve": [1, 1]}}"#, "==="),
        (#"{"map": 5}"#, "map"),
        (#"{"map": [null, {"var": ""}]}"#, "map"),
        (#"{"filter": [[1, 2], null]}"#, "filter"),
        (#"{"reduce": [[1], {"var": "current"}, 0, 1]}"#, "reduce"),
        (#"{"all": [[1]]}"#, "all"),
        (#"{"%": [1]}"#, "%"),
        (#"{"%": 7}"#, "%"),
        (#"{"-": []}"#, "-"),
        (#"{"/": []}"#, "/"),
        (#"{"max": []}"#, "max"),
        (#"{"in": ["a"]}"#, "in"),
        (#"{"missing_some": [1]}"#, "missing_some"),
        (#"{"substr": []}"#, "substr"),
        (#"{"throw": []}"#, "throw"),
        (#"{"var": true}"#, "var"),
        (#"{"var": ["a", 1, 2]}"#, "var"),
        (#"{"val": [[1, 2], "x"]}"#, "val"),
        (#"{"exists": [[1, 2]]}"#, "exists"),
    ])
    func malformedArgumentsAreAnInvalidRule(rule: String, name: String) throws {
        let error = try #require(try RuleTestSupport.compileError(rule))
        #expect(error.code == .invalidRule)
        #expect(error.details["type"] == "Invalid Arguments")
        #expect(error.details["operator"] == .string(name))
    }

    @Test(arguments: [
        #"{"!": {"var": "context.loggedIn"}}"#,
        #"{"and": []}"#,
        #"{"if": []}"#,
        #"{"+": {"var": "numbers"}}"#,
        #"{"%": {"var": "operands"}}"#,
        #"{"map": [{"var": "xs"}, {"var": ""}]}"#,
        #"{"all": [[1], null]}"#,
        #"{"var": [{"cat": ["a", ".b"]}, 0]}"#,
        #"{"val": [[-2], "x", 1, null]}"#,
        #"{"preserve": {"unknown": [1]}}"#,
        #"{"try": {"throw": "x"}}"#,
        #"[1, "a", {}, null]"#,
    ])
    func wellFormedRulesCompile(rule: String) throws {
        #expect(try RuleTestSupport.compileError(rule) == nil)
    }

    @Test func excessiveNestingIsAnInvalidRule() throws {
        var expression: JSONValue = .int(1)
        for _ in 0..<300 { expression = .object(["!": expression]) }
        #expect(throws: LinkError.self) { try Rule(expression) }
    }

    @Test func deepestAcceptedRuleEvaluatesOnATaskStack() async throws {
        var expression: JSONValue = .array([.object(["var": "x"])])
        for level in 0..<200 { expression = .object([level.isMultiple(of: 2) ? "!" : "!!": expression]) }
        for _ in 0..<50 { expression = .object(["if": .array([true, expression, false])]) }
        let rule = try Rule(expression)
        let result = try await Task.detached { try rule.evaluate(["x": 1]) }.value
        #expect(result == .bool(true))  // !1, !!, !, !! … over 200 levels
    }

    @Test func keepsTheSourceExpressionAndComparesByIt() throws {
        let expression = try RuleTestSupport.json(#"{"==": [{"var": "a"}, 1]}"#)
        let rule = try Rule(expression)
        #expect(rule.expression == expression)
        #expect(rule == (try Rule(expression)))
        #expect(rule != (try Rule(RuleTestSupport.json(#"{"==": [{"var": "a"}, 2]}"#))))
        #expect(Set([rule, try Rule(expression)]).count == 1)
    }
}
