import LinkCore
import Testing

/// Rules whose evaluation exhausts memory or a CPU (issue 7 part 4, docs/reliability.md).
///
/// JSON Logic evaluation has no work or size budget, so a small rule sent to `POST /v1/rules/evaluate` — open to
/// every client — or a route's rule fed a large `context` ties up the server:
/// - a `reduce` whose body doubles its accumulator asks for 2^n elements or characters after n steps (about 150
///   bytes of rule and 40 numbers of data: `out-of-memory` in `Fuzz/.build/release/RuleFuzzer FILE`, the
///   server killed by the kernel);
/// - `some` over an array whose body scans the same array with `in` is quadratic in the data: 200 KB of request
///   take 9 s of one worker thread in a release build, 1 MiB (the body limit) about 4 minutes.
///
/// Fixed by the evaluator's work budget: evaluation now fails with a `RuleError` ("Evaluation Limit") instead of
/// running away.
@Suite
struct RuleWorkLimitRegressionTests {
    @Test(arguments: [
        #"{"reduce": [{"var": "n"}, {"merge": [{"var": "accumulator"}, {"var": "accumulator"}]}, [1]]}"#,
        #"{"reduce": [{"var": "n"}, {"cat": [{"var": "accumulator"}, {"var": "accumulator"}]}, "ab"]}"#,
    ])
    func doublingAccumulatorIsRefused(rule text: String) throws {
        let rule = try Rule(JSONParser.parse(text))
        let data: JSONValue = ["n": .array((0..<40).map(JSONValue.int))]
        #expect(throws: RuleError.self) { try rule.evaluate(data) }
    }

    @Test func quadraticScanIsRefused() throws {
        let rule = try Rule(JSONParser.parse(#"{"some": [{"var": "a"}, {"in": [-1, {"val": [[2], "a"]}]}]}"#))
        let data: JSONValue = ["a": .array((0..<150_000).map(JSONValue.int))]
        #expect(throws: RuleError.self) { try rule.evaluate(data) }
    }
}
