import OrderedCollections

/// The comparison operators' semantics.
///
/// - Loose (`==`, `!=`) and ordering (`<`, `<=`, `>`, `>=`) comparisons compare two strings as strings (by Unicode
///   code points) and everything else as numbers, coercing like JavaScript's `Number()` (`null` and `false` are 0,
///   `"3"` is 3). An array or object operand, or a string that is not a number compared with a non-string, fails
///   with `NaN` rather than silently comparing false.
/// - Strict comparisons (`===`, `!==`) never coerce: values are equal when they have the same JSON type and value
///   (`1` and `1.0` are the same number); arrays and objects compare deeply, objects regardless of key order.
enum Comparison {
    /// Whether `op` holds between `lhs` and `rhs`.
    static func holds(_ op: Operator, _ lhs: JSONValue, _ rhs: JSONValue) throws(RuleError) -> Bool {
        switch op {
        case .equal: return try looselyEqual(lhs, rhs)
        case .notEqual: return try !looselyEqual(lhs, rhs)
        case .strictEqual: return strictlyEqual(lhs, rhs)
        case .strictNotEqual: return !strictlyEqual(lhs, rhs)
        case .less: return try order(lhs, rhs) < 0
        case .lessOrEqual: return try order(lhs, rhs) <= 0
        case .greater: return try order(lhs, rhs) > 0
        case .greaterOrEqual: return try order(lhs, rhs) >= 0
        default: return false
        }
    }

    /// `==`.
    static func looselyEqual(_ lhs: JSONValue, _ rhs: JSONValue) throws(RuleError) -> Bool {
        if case .string(let left) = lhs, case .string(let right) = rhs { return left == right }
        return try NumberValue.compare(number(lhs), number(rhs)) == 0
    }

    /// -1, 0 or 1 as `lhs` orders before, with or after `rhs`.
    static func order(_ lhs: JSONValue, _ rhs: JSONValue) throws(RuleError) -> Int {
        if case .string(let left) = lhs, case .string(let right) = rhs {
            if left == right { return 0 }
            return left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : 1
        }
        return try NumberValue.compare(number(lhs), number(rhs))
    }

    /// `===`.
    static func strictlyEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case (.bool(let left), .bool(let right)):
            return left == right
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            guard let left = NumberValue(exactly: lhs), let right = NumberValue(exactly: rhs) else { return false }
            return NumberValue.compare(left, right) == 0
        case (.string(let left), .string(let right)):
            return left == right
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { strictlyEqual($0, $1) }
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            for (key, value) in left {
                guard let other = right[key], strictlyEqual(value, other) else { return false }
            }
            return true
        default:
            return false
        }
    }

    private static func number(_ value: JSONValue) throws(RuleError) -> NumberValue {
        switch value {
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        default: return try NumberValue(coercing: value)
        }
    }
}
