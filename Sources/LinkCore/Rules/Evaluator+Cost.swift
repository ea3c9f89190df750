extension Evaluator {
    /// What comparing `value` may cost beyond one node: nothing for scalars, a unit per 64 bytes of a string, and
    /// one unit per element, member and 64 string bytes inside arrays and objects (which comparisons coerce to
    /// text). Stops counting past `limit`, so measuring never costs more than the budget it guards.
    static func coercionCost(_ value: JSONValue, limit: Int) -> Int {
        switch value {
        case .null, .bool, .int, .double: return 0
        case .string(let text): return text.utf8.count / 64
        case .array, .object:
            var cost = 0
            var pending: [JSONValue] = [value]
            while let next = pending.popLast(), cost <= limit {
                switch next {
                case .array(let elements):
                    cost += 1 + elements.count
                    pending.append(contentsOf: elements.lazy.filter(\.isContainerOrString))
                case .object(let members):
                    cost += 1 + members.count
                    pending.append(contentsOf: members.values.lazy.filter(\.isContainerOrString))
                case .string(let text):
                    cost += text.utf8.count / 64
                default:
                    break
                }
            }
            return cost
        }
    }
}

extension JSONValue {
    fileprivate var isContainerOrString: Bool {
        switch self {
        case .array, .object, .string: true
        default: false
        }
    }
}
