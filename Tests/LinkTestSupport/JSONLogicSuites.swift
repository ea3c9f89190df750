import Foundation
import LinkCore

/// One case of the JSON Logic conformance suites (`Tests/Fixtures/jsonlogic`, a copy of the contract's
/// `jsonlogic/suites`): the engine's tests run them on `Rule`, the service's through `POST /v1/rules/evaluate`.
public struct JSONLogicCase: Sendable, CustomStringConvertible {
    public enum Expectation: Sendable {
        case result(JSONValue)
        /// The error type evaluation must fail with.
        case error(JSONValue)
    }

    /// The suite file, relative to the suites folder.
    public let file: String
    /// The position of the case among the file's cases (section headings are not counted).
    public let index: Int
    public let rule: JSONValue
    public let data: JSONValue
    public let expectation: Expectation

    public var description: String { "\(file)#\(index) \(rule)" }
}

/// Reads the conformance suites.
public enum JSONLogicSuites {
    /// The number of cases in the suites; the best published implementation passes all of them.
    public static let caseCount = 1138

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/jsonlogic/suites")

    /// The suite files, in the order of `index.json`.
    public static func fileNames() throws -> [String] {
        try read("index.json").arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// The cases of one suite file; string elements are section headings and are skipped.
    public static func cases(in file: String) throws -> [JSONLogicCase] {
        let elements = try read(file).arrayValue ?? []
        return elements.compactMap(\.objectValue).enumerated().map { index, object in
            let expectation: JSONLogicCase.Expectation
            if let error = object["error"] {
                expectation = .error(error["type"] ?? .null)
            } else {
                expectation = .result(object["result"] ?? .null)
            }
            return JSONLogicCase(
                file: file, index: index, rule: object["rule"] ?? .null, data: object["data"] ?? .null,
                expectation: expectation)
        }
    }

    /// Every case of every file, in order.
    public static func allCases() throws -> [JSONLogicCase] {
        try fileNames().flatMap { try cases(in: $0) }
    }

    /// Equality where numbers compare as numbers (`1 == 1.0`) and object key order does not matter.
    public static func sameValue(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
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
