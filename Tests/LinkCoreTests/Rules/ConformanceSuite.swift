import LinkCore
import LinkTestSupport

/// Runs the conformance suites (``JSONLogicSuites`` reads them) on ``Rule``.
///
/// A case expecting `{"error": {"type": T}}` passes when evaluation throws a ``RuleError`` of type `T`, or when
/// compiling the rule already throws a `LinkError` `.invalidRule` whose `details["type"]` is `T` — the engine
/// reports at compile time whatever fails regardless of the data (`"Unknown Operator"`, and `"Invalid Arguments"`
/// for shapes such as `{"and": true}` or `{"<": [1]}`).
enum ConformanceSuite {
    /// Nil when the case passes; otherwise a line naming the file, index, rule, expected and actual outcome.
    static func miss(_ testCase: JSONLogicCase) -> String? {
        let got = outcome(of: testCase)
        let passed: Bool
        let expected: String
        switch (testCase.expectation, got) {
        case (.result(let value), .result(let actual)):
            passed = JSONLogicSuites.sameValue(value, actual)
            expected = "result \(value)"
        case (.error(let type), .error(let actualType, _)), (.error(let type), .invalidRule(let actualType, _)):
            passed = actualType == type
            expected = "error \(type)"
        case (.result(let value), _):
            passed = false
            expected = "result \(value)"
        case (.error(let type), _):
            passed = false
            expected = "error \(type)"
        }
        if passed { return nil }
        return
            "\(testCase.file) #\(testCase.index): rule \(testCase.rule) data \(testCase.data) — expected \(expected), got \(got)"
    }

    enum Outcome: CustomStringConvertible {
        case result(JSONValue)
        case error(JSONValue, String)
        case invalidRule(JSONValue, String)

        var description: String {
            switch self {
            case .result(let value): return "result \(value)"
            case .error(let type, let message): return "error \(type) (\(message))"
            case .invalidRule(let type, let message): return "invalid rule \(type) (\(message))"
            }
        }
    }

    static func outcome(of testCase: JSONLogicCase) -> Outcome {
        let rule: Rule
        do {
            rule = try Rule(testCase.rule)
        } catch {
            return .invalidRule(error.details["type"] ?? .null, error.message)
        }
        do {
            return .result(try rule.evaluate(testCase.data))
        } catch {
            return .error(error.type, error.message)
        }
    }
}
