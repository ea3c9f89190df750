extension Evaluator {
    /// What comparing `value` may cost beyond one node: nothing for scalars, a unit per 64 bytes of a string, and
    /// one unit per element, member and 64 string bytes inside arrays and objects (which comparisons coerce to
    /// text). Stops counting past `limit`, so measuring never costs more than the budget it guards.
    static func coercionCost(_ value: JSONValue, limit: Int) -> Int {
        measure(value, limit: limit).cost
    }

    /// ``coercionCost(_:limit:)``'s walk, with the deepest nesting it met (an array or an object is one level).
    static func measure(_ value: JSONValue, limit: Int) -> (cost: Int, depth: Int) {
        switch value {
        case .null, .bool, .int, .double: return (0, 0)
        case .string(let text): return (text.utf8.count / 64, 0)
        case .array, .object:
            var cost = 0
            var deepest = 0
            var pending: [(value: JSONValue, depth: Int)] = [(value, 1)]
            while let (next, depth) = pending.popLast(), cost <= limit {
                switch next {
                case .array(let elements):
                    cost += 1 + elements.count
                    deepest = max(deepest, depth)
                    for element in elements where element.isContainerOrString { pending.append((element, depth + 1)) }
                case .object(let members):
                    cost += 1 + members.count
                    deepest = max(deepest, depth)
                    for member in members.values where member.isContainerOrString {
                        pending.append((member, depth + 1))
                    }
                case .string(let text):
                    cost += text.utf8.count / 64
                default:
                    break
                }
            }
            return (cost, deepest)
        }
    }
}

extension Evaluator {
    /// The deepest value a rule may build: as deep as the deepest JSON the service reads back. A rule can nest a
    /// value without bound only through `reduce` (its accumulator fed back, `[{"var": "accumulator"}]`); one a
    /// million levels deep took more stack to write out, or to free, than a thread has.
    static let maximumDepth = JSONParser.storedMaxDepth

    /// Fails with ``RuleError/evaluationLimitType`` when `value` nests deeper than ``maximumDepth``. The walk
    /// (``measure(_:limit:)``, what coercing the value would cost) is charged like any other work; a value that
    /// is `unchanged` from one already checked (the same array storage: an accumulator passed through) is not
    /// walked again.
    mutating func checkDepth(_ value: JSONValue, unchanged previous: JSONValue? = nil) throws(RuleError) {
        guard value.isContainer else { return }
        if let previous, value.sharesStorage(with: previous) { return }
        let (cost, depth) = Evaluator.measure(value, limit: budget)
        guard depth <= Evaluator.maximumDepth else {
            // Spent, like an exhausted budget: `try` cannot catch a limit and go on.
            budget = -1
            throw RuleError(
                type: RuleError.evaluationLimitType,
                message: "The rule built a value nested deeper than \(Evaluator.maximumDepth) levels")
        }
        try charge(cost)
    }

    /// Charges coercing an array or an object to text (`cat`, `substr`, `in`) before it is coerced: the text is
    /// built from all of it, however few nodes built the value.
    mutating func chargeCoercion(_ value: JSONValue) throws(RuleError) {
        if value.isContainer { try charge(Evaluator.coercionCost(value, limit: budget)) }
    }
}

extension JSONValue {
    /// Whether both are the same array, in the same storage (a copy of the value, not an equal array).
    fileprivate func sharesStorage(with other: JSONValue) -> Bool {
        guard case .array(let mine) = self, case .array(let theirs) = other, mine.count == theirs.count else {
            return false
        }
        return mine.withUnsafeBufferPointer { a in
            theirs.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
    }

    /// Whether the value is an array or an object.
    var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    /// The value as an error message shows it: whole when small, else its type and size (a rule can build values
    /// far too big to write out, and a message is not charged to its budget).
    var excerpt: String {
        switch self {
        case .array(let elements) where Evaluator.coercionCost(self, limit: 32) > 32:
            return "[…] (an array of \(elements.count) elements)"
        case .object(let members) where Evaluator.coercionCost(self, limit: 32) > 32:
            return "{…} (an object of \(members.count) members)"
        case .string(let text) where text.utf8.count > 256:
            return JSONValue.string(String(text.prefix(64))).description + "… (\(text.utf8.count) bytes)"
        default:
            return description
        }
    }

    fileprivate var isContainerOrString: Bool {
        switch self {
        case .array, .object, .string: true
        default: false
        }
    }
}
