/// Evaluates a compiled ``Node`` tree over one piece of data.
///
/// The rule's data is the bottom scope; iterators and `try` fallbacks push ``Frame``s above it while their bodies
/// run. Errors are ``RuleError``s, thrown with typed throws all the way up.
struct Evaluator {
    /// The data the rule runs on.
    let root: JSONValue
    /// Scopes stacked above `root`, innermost last. Empty (and unallocated) unless an iterator or `try` runs.
    var frames: [Frame] = []
    /// Work left: every node evaluated costs one unit, and operators whose work grows with their input (`merge`,
    /// `cat`, `in`, `substr`) cost its size. A rule that runs out fails with ``RuleError/evaluationLimitType``, so
    /// no rule (the playground is open to every client) can occupy a thread or memory without bound.
    var budget: Int

    /// The default work budget: a few hundred milliseconds of evaluation at most.
    static let defaultBudget = 5_000_000

    init(root: JSONValue, budget: Int = Evaluator.defaultBudget) {
        self.root = root
        self.budget = budget
    }

    /// Spends `units` of the budget; throws when it is exhausted.
    @inline(__always)
    mutating func charge(_ units: Int) throws(RuleError) {
        budget -= units
        if budget < 0 {
            throw RuleError(
                type: RuleError.evaluationLimitType,
                message: "The rule did more work than one evaluation may (\(Evaluator.defaultBudget) units)")
        }
    }

    mutating func evaluate(_ node: Node) throws(RuleError) -> JSONValue {
        try charge(1)
        switch node {
        case .literal(let value):
            return value
        case .array(let nodes):
            var elements: [JSONValue] = []
            elements.reserveCapacity(nodes.count)
            for element in nodes { elements.append(try evaluate(element)) }
            return .array(elements)
        case .variable(let path, let fallback):
            if let found = lookup(path) { return found }
            guard let fallback else { return .null }
            return try evaluate(fallback)
        case .value(let path):
            return lookup(path) ?? .null
        case .exists(let path):
            return .bool(lookup(path) != nil)
        case .call(let op, let arguments):
            return try call(op, arguments)
        }
    }

    private mutating func call(_ op: Operator, _ arguments: Arguments) throws(RuleError) -> JSONValue {
        switch op {
        case .variable: return try computedVariable(arguments)
        case .value: return try computedValue(arguments, exists: false)
        case .exists: return try computedValue(arguments, exists: true)
        case .missing: return try missing(arguments)
        case .missingSome: return try missingSome(arguments)
        case .condition, .ternary: return try condition(arguments)
        case .and: return try conjunction(arguments)
        case .or: return try disjunction(arguments)
        case .not: return .bool(!(try firstArgument(arguments).isTruthy))
        case .truthy: return .bool(try firstArgument(arguments).isTruthy)
        case .coalesce: return try coalesce(arguments)
        case .try: return try attempt(arguments)
        case .throw: return try raise(arguments)
        case .equal, .notEqual, .strictEqual, .strictNotEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            return try compare(op, arguments)
        case .add, .subtract, .multiply, .divide, .modulo, .max, .min:
            return try arithmetic(op, arguments)
        case .map, .filter, .reduce, .all, .some, .none:
            return try iterate(op, arguments)
        case .merge: return try merge(arguments)
        case .in: return try contains(arguments)
        case .cat: return try concatenate(arguments)
        case .substr: return try substring(arguments)
        case .preserve: return try firstArgument(arguments)
        }
    }

    // MARK: Arguments

    /// Every argument's value: one per node of a list, or the elements of a computed array.
    mutating func argumentValues(_ arguments: Arguments) throws(RuleError) -> [JSONValue] {
        switch arguments {
        case .list(let nodes):
            var values: [JSONValue] = []
            values.reserveCapacity(nodes.count)
            for node in nodes { values.append(try evaluate(node)) }
            return values
        case .computed(let node):
            let value = try evaluate(node)
            if case .array(let elements) = value { return elements }
            return [value]
        }
    }

    /// The first argument's value, `null` when there is none; later arguments are not evaluated.
    mutating func firstArgument(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        switch arguments {
        case .list(let nodes):
            guard let first = nodes.first else { return .null }
            return try evaluate(first)
        case .computed(let node):
            let value = try evaluate(node)
            if case .array(let elements) = value { return elements.first ?? .null }
            return value
        }
    }

    /// The argument nodes of an operator that evaluates them selectively; the compiler guarantees a list.
    func argumentNodes(_ op: Operator, _ arguments: Arguments) throws(RuleError) -> [Node] {
        guard case .list(let nodes) = arguments else {
            throw .invalidArguments("'\(op.name)' takes an array of arguments")
        }
        return nodes
    }

    // MARK: Comparison and arithmetic

    /// A comparison chained over its arguments (`{"<": [1, x, 10]}` is `1 < x && x < 10`), evaluating each
    /// argument only when the comparisons before it held.
    private mutating func compare(_ op: Operator, _ arguments: Arguments) throws(RuleError) -> JSONValue {
        guard case .list(let nodes) = arguments, nodes.count >= 2 else {
            throw .invalidArguments("'\(op.name)' compares at least two arguments")
        }
        var previous = try evaluate(nodes[0])
        for position in 1..<nodes.count {
            let next = try evaluate(nodes[position])
            // Coercing an array or an object to text for a comparison walks all of it.
            try charge(Evaluator.coercionCost(previous, limit: budget) + Evaluator.coercionCost(next, limit: budget))
            guard try Comparison.holds(op, previous, next) else { return .bool(false) }
            previous = next
        }
        return .bool(true)
    }

    private mutating func arithmetic(_ op: Operator, _ arguments: Arguments) throws(RuleError) -> JSONValue {
        var fold = Arithmetic(op)
        switch arguments {
        case .list(let nodes):
            for node in nodes { fold.include(try evaluate(node)) }
        case .computed(let node):
            let value = try evaluate(node)
            if case .array(let elements) = value {
                for element in elements { fold.include(element) }
            } else {
                fold.include(value)
            }
        }
        return try fold.result()
    }
}
