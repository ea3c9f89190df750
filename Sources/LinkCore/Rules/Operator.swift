/// The operators of the engine, resolved from their JSON names once, at compile time.
///
/// Evaluation switches over these cases; operator names are never compared as strings after compilation.
enum Operator: String, Sendable, CaseIterable {
    // Data access.
    case variable = "var"
    case value = "val"
    case exists
    case missing
    case missingSome = "missing_some"

    // Control and logic.
    case condition = "if"
    case ternary = "?:"
    case and
    case or
    case not = "!"
    case truthy = "!!"
    case coalesce = "??"
    case `try`
    case `throw`

    // Comparison.
    case equal = "=="
    case notEqual = "!="
    case strictEqual = "==="
    case strictNotEqual = "!=="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    // Arithmetic.
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case modulo = "%"
    case max
    case min

    // Arrays.
    case map
    case filter
    case reduce
    case all
    case some
    case none
    case merge
    case `in`

    // Strings.
    case cat
    case substr

    // Literals.
    case preserve

    /// The JSON name of the operator, for messages.
    var name: String { rawValue }

    /// Operators whose arguments must be written as a JSON array, because they evaluate them selectively.
    var requiresArgumentArray: Bool {
        switch self {
        case .condition, .ternary, .and, .or: return true
        case .equal, .notEqual, .strictEqual, .strictNotEqual: return true
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return true
        case .map, .filter, .reduce, .all, .some, .none: return true
        default: return false
        }
    }

    /// `==`, `!=`, `===`, `!==`, `<`, `<=`, `>`, `>=`: chained over two or more arguments, evaluated lazily.
    var isComparison: Bool {
        switch self {
        case .equal, .notEqual, .strictEqual, .strictNotEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            return true
        default:
            return false
        }
    }
}
