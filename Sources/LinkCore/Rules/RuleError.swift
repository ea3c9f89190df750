// STAND-IN: replaced by the real engine from branch rules

/// A JSON Logic evaluation failure: `type` is the json-logic error type (`"Invalid Arguments"`, `"NaN"`, …) or
/// the value thrown by `throw`.
public struct RuleError: Error, Sendable, Equatable {
    public var type: JSONValue
    public var message: String

    public init(type: JSONValue, message: String) {
        self.type = type
        self.message = message
    }
}
