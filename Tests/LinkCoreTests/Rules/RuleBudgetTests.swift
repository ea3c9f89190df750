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

    /// `in` on a string was an uncharged O(needle × haystack) scan: one 950 KB request held a worker for 41 s.
    @Test func aLongSubstringSearchIsLinear() throws {
        let haystack = String(repeating: "a", count: 400_000) + "b"
        let needle = String(repeating: "a", count: 200_000) + "b"
        let data: JSONValue = ["h": .string(haystack), "n": .string(needle)]
        #expect(try evaluate(#"{"in": [{"var": "n"}, {"var": "h"}]}"#, data) == true)
        #expect(try evaluate(#"{"in": [{"var": "n"}, {"cat": [{"var": "h"}, "x"]}]}"#, data) == true)
        #expect(try evaluate(#"{"in": ["ab", "xxaab"]}"#, .null) == true)
        #expect(try evaluate(#"{"in": ["aab", "abaab"]}"#, .null) == true)
        #expect(try evaluate(#"{"in": ["abab", "abaab"]}"#, .null) == false)
        #expect(try evaluate(#"{"in": ["", "x"]}"#, .null) == true)
        #expect(try evaluate(#"{"in": ["清", "清华"]}"#, .null) == true)
    }

    /// `substr` copied its whole input into an array on every call, uncharged: minutes inside a `reduce`.
    @Test func substringsOfALargeTextAreCharged() {
        let data: JSONValue = [
            "t": .string(String(repeating: "x", count: 500_000)), "n": .array((0..<200).map(JSONValue.int)),
        ]
        expectLimit(#"{"map": [{"var": "n"}, {"substr": [{"val": [[2], "t"]}, 0, 1]}]}"#, data)
    }

    /// Comparing arrays walks them: a loop comparing a large array with itself is charged for it.
    @Test func comparingLargeArraysIsCharged() {
        let data: JSONValue = ["a": .array((0..<100_000).map(JSONValue.int))]
        expectLimit(#"{"map": [{"var": "a"}, {"===": [{"val": [[2], "a"]}, {"val": [[2], "a"]}]}]}"#, data)
    }
}
