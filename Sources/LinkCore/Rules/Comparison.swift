import OrderedCollections

/// The comparison operators' semantics.
///
/// - Loose (`==`, `!=`) and ordering (`<`, `<=`, `>`, `>=`) comparisons compare two strings as strings (by Unicode
///   code points) and everything else as numbers, coercing like JavaScript's `Number()` (`null` and `false` are 0,
///   `"3"` is 3). They fail with `NaN` when an operand is an array or object, or when a number meets a string that
///   is not a number (`2024` vs `"2024-01-01"`). Other pairs that have no numeric meaning, such as `null` and `"US"`,
///   are simply unequal and unordered, so `{"==": [{"var": "missing"}, "US"]}` is `false` rather than an error.
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
        default: break
        }
        guard let ordering = try order(lhs, rhs) else { return false }
        switch op {
        case .less: return ordering < 0
        case .lessOrEqual: return ordering <= 0
        case .greater: return ordering > 0
        default: return ordering >= 0
        }
    }

    /// `==`.
    static func looselyEqual(_ lhs: JSONValue, _ rhs: JSONValue) throws(RuleError) -> Bool {
        if case .string(let left) = lhs, case .string(let right) = rhs { return left == right }
        guard let (left, right) = try numbers(lhs, rhs) else { return false }
        return NumberValue.compare(left, right) == 0
    }

    /// -1, 0 or 1 as `lhs` orders before, with or after `rhs`; nil when they have no order.
    static func order(_ lhs: JSONValue, _ rhs: JSONValue) throws(RuleError) -> Int? {
        if case .string(let left) = lhs, case .string(let right) = rhs {
            if left == right { return 0 }
            return left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : 1
        }
        guard let (left, right) = try numbers(lhs, rhs) else { return nil }
        return NumberValue.compare(left, right)
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

    /// Both operands as numbers; nil when one is a string that is not a number and the other is not a number
    /// either. Fails with `NaN` for arrays, objects, and a number against a string that is not a number.
    private static func numbers(_ lhs: JSONValue, _ rhs: JSONValue) throws(RuleError) -> (NumberValue, NumberValue)? {
        if let left = NumberValue(exactly: lhs), let right = NumberValue(exactly: rhs) { return (left, right) }
        let left = try number(lhs)
        let right = try number(rhs)
        if let left, let right { return (left, right) }
        if (left == nil && rhs.isNumber) || (right == nil && lhs.isNumber) {
            throw .notANumber("cannot compare \(lhs.excerpt) with \(rhs.excerpt)")
        }
        return nil
    }

    /// The number a scalar stands for; nil for a string that is not a number; `NaN` for arrays and objects.
    private static func number(_ value: JSONValue) throws(RuleError) -> NumberValue? {
        switch value {
        case .string(let text): return NumberValue(parsing: text)
        case .array, .object: throw .notANumber("cannot compare \(value.typeName) \(value.excerpt)")
        default: return try NumberValue(coercing: value)
        }
    }
}

extension JSONValue {
    /// Whether this is a JSON number.
    fileprivate var isNumber: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }
}
