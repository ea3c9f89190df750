import Foundation
import LinkCore
import OrderedCollections

/// One case of the JSON Logic conformance suites (`Tests/Fixtures/jsonlogic`).
struct ConformanceCase: Sendable, CustomStringConvertible {
    enum Expectation: Sendable {
        case result(JSONValue)
        /// The error type evaluation must fail with.
        case error(JSONValue)
    }

    /// The suite file, relative to the suites folder.
    let file: String
    /// The position of the case among the file's cases (section headings are not counted).
    let index: Int
    let rule: JSONValue
    let data: JSONValue
    let expectation: Expectation

    var description: String { "\(file)#\(index) \(rule)" }
}

/// Loads and runs the conformance suites.
///
/// A case expecting `{"error": {"type": T}}` passes when evaluation throws a ``RuleError`` of type `T`, or when
/// compiling the rule already throws a `LinkError` `.invalidRule` whose `details["type"]` is `T` — the engine
/// reports at compile time whatever fails regardless of the data (`"Unknown Operator"`, and `"Invalid Arguments"`
/// for shapes such as `{"and": true}` or `{"<": [1]}`).
enum ConformanceSuite {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/jsonlogic/suites")

    /// The suite files, in the order of `index.json`.
    static func fileNames() throws -> [String] {
        try read("index.json").arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// The cases of one suite file; string elements are section headings and are skipped.
    static func cases(in file: String) throws -> [ConformanceCase] {
        let elements = try read(file).arrayValue ?? []
        return elements.compactMap(\.objectValue).enumerated().map { index, object in
            let expectation: ConformanceCase.Expectation
            if let error = object["error"] {
                expectation = .error(error["type"] ?? .null)
            } else {
                expectation = .result(object["result"] ?? .null)
            }
            return ConformanceCase(
                file: file, index: index, rule: object["rule"] ?? .null, data: object["data"] ?? .null,
                expectation: expectation)
        }
    }

    /// Nil when the case passes; otherwise a line naming the file, index, rule, expected and actual outcome.
    static func miss(_ testCase: ConformanceCase) -> String? {
        let got = outcome(of: testCase)
        let passed: Bool
        let expected: String
        switch (testCase.expectation, got) {
        case (.result(let value), .result(let actual)):
            passed = sameValue(value, actual)
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

    static func outcome(of testCase: ConformanceCase) -> Outcome {
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

    /// Equality where numbers compare as numbers (`1 == 1.0`) and object key order does not matter.
    static func sameValue(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.int, _), (.double, _):
            guard let left = lhs.doubleValue, let right = rhs.doubleValue else { return false }
            return left == right
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { sameValue($0, $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { key, value in right[key].map { sameValue(value, $0) } ?? false }
        default:
            return lhs == rhs
        }
    }

    private static func read(_ file: String) throws -> JSONValue {
        let bytes = try Data(contentsOf: directory.appendingPathComponent(file))
        return try JSONParser.parse(bytes)
    }
}
