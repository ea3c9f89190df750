import LinkCore
import Testing

/// A rule cannot run away with a thread or the memory: evaluation has a work budget.
@Suite struct RuleBudgetTests {
    private func evaluate(_ rule: String, _ data: JSONValue) throws -> JSONValue {
        try Rule(JSONParser.parse(rule)).evaluate(data)
    }

    private func expectLimit(_ rule: String, _ data: JSONValue) {
        #expect {
            try evaluate(rule, data)
        } throws: { error in
            (error as? RuleError)?.type == RuleError.evaluationLimitType
        }
    }

    @Test func aDoublingAccumulatorStops() {
        let data: JSONValue = ["n": .array((0..<40).map(JSONValue.int))]
        expectLimit(
            #"{"reduce": [{"var": "n"}, {"merge": [{"var": "accumulator"}, {"var": "accumulator"}]}, [1]]}"#, data)
        expectLimit(
            #"{"reduce": [{"var": "n"}, {"cat": [{"var": "accumulator"}, {"var": "accumulator"}]}, "ab"]}"#, data)
    }

    @Test func aQuadraticScanStops() {
        let data: JSONValue = ["a": .array((0..<150_000).map(JSONValue.int))]
        expectLimit(#"{"some": [{"var": "a"}, {"in": [-1, {"val": [[2], "a"]}]}]}"#, data)
    }

    @Test func tryCannotSwallowTheLimit() {
        let data: JSONValue = ["n": .array((0..<40).map(JSONValue.int))]
        expectLimit(
            #"{"try": [{"reduce": [{"var": "n"}, {"merge": [{"var": "accumulator"}, {"var": "accumulator"}]}, [1]]}, 0]}"#,
            data)
    }

    @Test func largeLinearWorkStillRuns() throws {
        let data: JSONValue = ["a": .array((0..<200_000).map(JSONValue.int))]
        #expect(try evaluate(#"{"reduce": [{"var": "a"}, {"+": [{"var": "accumulator"}, 1]}, 0]}"#, data) == 200_000)
        #expect(try evaluate(#"{"in": [199999, {"var": "a"}]}"#, data) == true)
    }
}
