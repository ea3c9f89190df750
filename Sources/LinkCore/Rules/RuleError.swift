import OrderedCollections

/// An evaluation failure of a ``Rule``.
///
/// `type` is the JSON Logic error type:
/// - `"Invalid Arguments"` when an operator receives arguments it cannot work with (an iterator given something other
///   than an array, `max` given a string, `%` given fewer than two operands…);
/// - `"NaN"` when arithmetic or a comparison has no numeric meaning (`"abc" + 1`, `1 / 0`, `[1] < 2`);
/// - the value raised by the `throw` operator: the `type` member of a thrown object that has one, the thrown value
///   itself otherwise;
/// - `"Evaluation Limit"` (this implementation's own) when a rule does more work than one evaluation may: a `reduce`
///   that doubles its accumulator, a scan inside a scan over large data. Once raised it cannot be caught by `try`.
public struct RuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON Logic error type, or the value raised by `throw`.
    public var type: JSONValue
    /// A human-readable explanation.
    public var message: String

    /// Creates an error of the given type.
    public init(type: JSONValue, message: String) {
        self.type = type
        self.message = message
    }

    public var description: String { "\(type): \(message)" }
}

extension RuleError {
    /// The type of errors raised for arguments an operator cannot work with.
    public static let invalidArgumentsType: JSONValue = "Invalid Arguments"
    /// The type of errors raised when arithmetic or a comparison has no numeric meaning.
    public static let notANumberType: JSONValue = "NaN"
    /// The type of errors raised when a rule exhausts its work budget.
    public static let evaluationLimitType: JSONValue = "Evaluation Limit"

    static func invalidArguments(_ message: String) -> RuleError {
        RuleError(type: invalidArgumentsType, message: message)
    }

    static func notANumber(_ message: String) -> RuleError {
        RuleError(type: notANumberType, message: message)
    }

    /// What the fallbacks of a `try` see as their data: `{"type": type}`.
    var tryContext: JSONValue { .object(["type": type]) }
}
