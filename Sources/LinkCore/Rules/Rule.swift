// STAND-IN: replaced by the real engine from branch rules
//
// A minimal JSON Logic subset (`var`, `!`, `!!`, `==`, `===`, `!=`, `!==`, `and`, `or`) with the exact API of the
// real engine, so that routing can be built and tested before the engine lands.

/// A compiled JSON Logic expression.
public struct Rule: Sendable {
    /// The expression as given.
    public let expression: JSONValue

    private static let operators: Set<String> = ["var", "!", "!!", "==", "===", "!=", "!==", "and", "or"]

    /// Compiles `expression`; a malformed expression or an unknown operator is `invalid_rule`.
    public init(_ expression: JSONValue) throws(LinkError) {
        try Rule.validate(expression)
        self.expression = expression
    }

    private static func validate(_ value: JSONValue) throws(LinkError) {
        switch value {
        case .array(let elements):
            for element in elements { try validate(element) }
        case .object(let object):
            guard object.count == 1, let (name, argument) = object.elements.first else {
                throw LinkError(.invalidRule, "An operation must have exactly one key")
            }
            guard operators.contains(name) else {
                throw LinkError(.invalidRule, "Unknown operator '\(name)'", details: ["operator": .string(name)])
            }
            try validate(argument)
        default: return
        }
    }

    /// Evaluates the expression against `data`.
    public func evaluate(_ data: JSONValue) throws(RuleError) -> JSONValue {
        try Rule.evaluate(expression, data)
    }

    private static func evaluate(_ value: JSONValue, _ data: JSONValue) throws(RuleError) -> JSONValue {
        switch value {
        case .array(let elements):
            var result: [JSONValue] = []
            for element in elements { result.append(try evaluate(element, data)) }
            return .array(result)
        case .object(let object):
            let (name, argument) = object.elements[0]
            var arguments: [JSONValue]
            if case .array(let list) = argument { arguments = list } else { arguments = [argument] }
            switch name {
            case "and", "or":
                var last: JSONValue = .null
                for argument in arguments {
                    last = try evaluate(argument, data)
                    if last.isTruthy != (name == "and") { return last }
                }
                return last
            default:
                var values: [JSONValue] = []
                for argument in arguments { values.append(try evaluate(argument, data)) }
                return try apply(name, values, data)
            }
        default:
            return value
        }
    }

    private static func apply(_ name: String, _ values: [JSONValue], _ data: JSONValue) throws(RuleError) -> JSONValue {
        let first = values.first ?? .null
        let second = values.count > 1 ? values[1] : .null
        switch name {
        case "var": return lookUp(first, in: data) ?? second
        case "!": return .bool(!first.isTruthy)
        case "!!": return .bool(first.isTruthy)
        case "===": return .bool(first == second)
        case "!==": return .bool(first != second)
        case "==": return .bool(looselyEqual(first, second))
        case "!=": return .bool(!looselyEqual(first, second))
        default: throw RuleError(type: "Unknown Operator", message: "Unknown operator '\(name)'")
        }
    }

    private static func lookUp(_ path: JSONValue, in data: JSONValue) -> JSONValue? {
        let text: String
        switch path {
        case .string(let string): text = string
        case .int(let int): text = String(int)
        case .null: return data
        default: return nil
        }
        if text.isEmpty { return data }
        var current = data
        for key in text.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object(let object):
                guard let next = object[String(key)] else { return nil }
                current = next
            case .array(let array):
                guard let index = Int(key), array.indices.contains(index) else { return nil }
                current = array[index]
            default: return nil
            }
        }
        return current
    }

    private static func looselyEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        switch (a, b) {
        case (.string(let s), _) where b.doubleValue != nil: return Double(s) == b.doubleValue
        case (_, .string(let s)) where a.doubleValue != nil: return Double(s) == a.doubleValue
        case (.bool(let x), _): return looselyEqual(.int(x ? 1 : 0), b)
        case (_, .bool(let y)): return looselyEqual(a, .int(y ? 1 : 0))
        default: return a == b
        }
    }
}

extension JSONValue {
    /// JSON Logic truthiness: `false`, `null`, `0`, `""` and `[]` are false; everything else is true.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .double(let d): return d != 0 && !d.isNaN
        case .string(let s): return !s.isEmpty
        case .array(let a): return !a.isEmpty
        case .object: return true
        }
    }
}
