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

    /// A `reduce` wrapping its accumulator once per element built a value a level deeper each time; writing out (or
    /// freeing) one a million levels deep overflowed a thread's stack and stopped the process. Values stop at the
    /// depth of the deepest JSON the service reads.
    @Test func aValueNestedWithoutBoundStops() throws {
        let wrap = #"{"reduce": [{"var": "n"}, [{"var": "accumulator"}], 0]}"#
        let deep: JSONValue = ["n": .array(Array(repeating: 0, count: 1_000_000))]
        expectLimit(wrap, deep)
        // The same from a rule alone: a million elements made by merging maps of a constant array.
        let thousand = "[" + Array(repeating: "0", count: 1000).joined(separator: ",") + "]"
        expectLimit(
            #"{"reduce": [{"merge": {"map": [\#(thousand), \#(thousand)]}}, [{"var": "accumulator"}], 0]}"#, .null)
        // Up to that depth it runs: 512 wraps around 0 are 512 levels.
        var value = try evaluate(wrap, ["n": .array(Array(repeating: 0, count: 512))])
        var depth = 0
        while case .array(let elements) = value, let first = elements.first {
            depth += 1
            value = first
        }
        #expect(depth == 512 && value == 0)
        expectLimit(wrap, ["n": .array(Array(repeating: 0, count: 513))])
        // Like a spent budget, `try` cannot catch it and go on.
        expectLimit(#"{"try": [\#(wrap), 1]}"#, ["n": .array(Array(repeating: 0, count: 513))])
    }

    /// The depth check walks an accumulator that changed, charged for its size, and not one passed through.
    @Test func accumulatorsPassedThroughOrBuiltStillRun() throws {
        let large: JSONValue = .array((0..<100_000).map(JSONValue.int))
        let steps: JSONValue = .array(Array(repeating: 0, count: 1_000))
        let passed = try evaluate(
            #"{"reduce": [{"var": "n"}, {"var": "accumulator"}, {"var": "a"}]}"#, ["n": steps, "a": large])
        #expect(passed == large)
        let built = try evaluate(
            #"{"reduce": [{"var": "n"}, {"merge": [{"var": "accumulator"}, [{"var": "current"}]]}, []]}"#,
            ["n": .array((0..<2_000).map(JSONValue.int))])
        #expect(built.arrayValue?.count == 2_000)
    }

    /// Nested `map`s over a constant array build, from shared pieces and for a few units each, a result of
    /// gigabytes when written out (200³ numbers here; 2,000³ in the request that found it). The result is charged
    /// for its size, and so is every way of writing a value out: text coercion, a thrown value, `in`.
    @Test func aResultLargerThanTheBudgetStops() throws {
        let constant = "[" + Array(repeating: "0", count: 200).joined(separator: ",") + "]"
        let huge = #"{"map": [\#(constant), {"map": [\#(constant), \#(constant)]}]}"#
        expectLimit(huge, .null)
        expectLimit(#"{"cat": [\#(huge)]}"#, .null)
        expectLimit(#"{"substr": [\#(huge), 0, 1]}"#, .null)
        expectLimit(#"{"in": [\#(huge), [\#(huge)]]}"#, .null)
        expectLimit(#"{"throw": [\#(huge)]}"#, .null)
        // An error that names the value shows a short excerpt of it, not the value.
        #expect {
            try evaluate(#"{"+": [1, \#(huge)]}"#, .null)
        } throws: { error in
            guard let error = error as? RuleError else { return false }
            return error.type == RuleError.notANumberType && error.message.utf8.count < 200
        }
        // A result within the budget is whole.
        let small = try evaluate(#"{"map": [[1, 2], {"map": [[3, 4], {"var": ""}]}]}"#, .null)
        #expect(small == [[3, 4], [3, 4]])
    }
}
