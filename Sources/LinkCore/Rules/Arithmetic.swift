/// The numeric operators (`+`, `-`, `*`, `/`, `%`, `max`, `min`) folded over their arguments one at a time, so
/// evaluating them allocates nothing.
///
/// Integer operands give integer results while they stay exact and in range (`{"+": [1, 2]}` is `3`,
/// `{"/": [4, 2]}` is `2`); anything else is computed in doubles (`{"/": [1, 2]}` is `0.5`). Operands are
/// coerced like JavaScript's `Number()`; `max` and `min` accept only numbers.
struct Arithmetic {
    private let op: Operator
    private var accumulator: NumberValue?
    private var count = 0
    /// The first failure among the operands, reported once they have all been evaluated (as JavaScript evaluates
    /// every argument before computing).
    private var failure: RuleError?

    init(_ op: Operator) {
        self.op = op
    }

    /// Folds in the next operand.
    mutating func include(_ operand: JSONValue) {
        count += 1
        guard failure == nil else { return }
        do throws(RuleError) {
            let number: NumberValue
            if op == .max || op == .min {
                guard let exact = NumberValue(exactly: operand) else {
                    throw .invalidArguments("'\(op.name)' takes numbers, not \(operand.typeName) \(operand.excerpt)")
                }
                number = exact
            } else {
                number = try NumberValue(coercing: operand)
            }
            if let accumulator {
                self.accumulator = try Arithmetic.combine(op, accumulator, number)
            } else {
                accumulator = number
            }
        } catch {
            failure = error
        }
    }

    /// The result once every operand has been folded in.
    func result() throws(RuleError) -> JSONValue {
        switch op {
        case .subtract, .divide, .max, .min:
            if count == 0 { throw .invalidArguments("'\(op.name)' needs at least one operand") }
        case .modulo:
            if count < 2 { throw .invalidArguments("'%' needs at least two operands") }
        default:
            break
        }
        if let failure { throw failure }
        guard let accumulator else { return op == .multiply ? .int(1) : .int(0) }
        if count == 1 {
            switch op {
            case .subtract: return try Arithmetic.negate(accumulator).json()
            case .divide: return try Arithmetic.divide(.int(1), accumulator).json()
            default: break
            }
        }
        return try accumulator.json()
    }

    private static func combine(_ op: Operator, _ lhs: NumberValue, _ rhs: NumberValue) throws(RuleError)
        -> NumberValue
    {
        switch op {
        case .add: return add(lhs, rhs)
        case .subtract: return add(lhs, negate(rhs))
        case .multiply: return multiply(lhs, rhs)
        case .divide: return try divide(lhs, rhs)
        case .modulo: return try remainder(lhs, rhs)
        case .max: return NumberValue.compare(rhs, lhs) > 0 ? rhs : lhs
        case .min: return NumberValue.compare(rhs, lhs) < 0 ? rhs : lhs
        default: return lhs
        }
    }

    static func add(_ lhs: NumberValue, _ rhs: NumberValue) -> NumberValue {
        if case .int(let left) = lhs, case .int(let right) = rhs {
            let (sum, overflow) = left.addingReportingOverflow(right)
            if !overflow { return .int(sum) }
        }
        return .double(lhs.doubleValue + rhs.doubleValue)
    }

    static func negate(_ value: NumberValue) -> NumberValue {
        switch value {
        case .int(let number) where number != Int.min: return .int(-number)
        default: return .double(-value.doubleValue)
        }
    }

    static func multiply(_ lhs: NumberValue, _ rhs: NumberValue) -> NumberValue {
        if case .int(let left) = lhs, case .int(let right) = rhs {
            let (product, overflow) = left.multipliedReportingOverflow(by: right)
            if !overflow { return .int(product) }
        }
        return .double(lhs.doubleValue * rhs.doubleValue)
    }

    /// Division; `NaN` for a zero divisor. Exact integer quotients stay integers.
    static func divide(_ lhs: NumberValue, _ rhs: NumberValue) throws(RuleError) -> NumberValue {
        guard rhs.doubleValue != 0 else { throw .notANumber("division by zero") }
        if case .int(let left) = lhs, case .int(let right) = rhs {
            let (quotient, overflow) = left.dividedReportingOverflow(by: right)
            if !overflow, left.remainderReportingOverflow(dividingBy: right).partialValue == 0 { return .int(quotient) }
        }
        return .double(lhs.doubleValue / rhs.doubleValue)
    }

    /// The remainder of truncating division (its sign follows the dividend); `NaN` for a zero divisor.
    static func remainder(_ lhs: NumberValue, _ rhs: NumberValue) throws(RuleError) -> NumberValue {
        guard rhs.doubleValue != 0 else { throw .notANumber("remainder of a division by zero") }
        if case .int(let left) = lhs, case .int(let right) = rhs {
            return .int(left.remainderReportingOverflow(dividingBy: right).partialValue)
        }
        return .double(lhs.doubleValue.truncatingRemainder(dividingBy: rhs.doubleValue))
    }
}
