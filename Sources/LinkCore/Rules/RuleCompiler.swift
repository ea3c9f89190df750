import OrderedCollections

/// Builds the ``Node`` tree of a JSON Logic expression, resolving operator names and rejecting what is malformed
/// whatever the data: unknown operators, objects with several keys, and argument shapes an operator can never
/// accept (see ``Rule/init(_:)``).
struct RuleCompiler {
    /// How deeply operations and arrays may nest; deeper expressions are rejected rather than risking the stack.
    static let maxDepth = 256

    static func compile(_ expression: JSONValue) throws(LinkError) -> Node {
        try compile(expression, depth: 0)
    }

    static func compile(_ expression: JSONValue, depth: Int) throws(LinkError) -> Node {
        guard depth <= maxDepth else {
            throw LinkError(
                .invalidRule, "The rule nests deeper than \(maxDepth) levels", details: ["type": "Nesting Too Deep"])
        }
        switch expression {
        case .array(let elements):
            let nodes = try elements.map { (element) throws(LinkError) in try compile(element, depth: depth + 1) }
            let constants = nodes.compactMap(\.literalValue)
            return constants.count == nodes.count ? .literal(.array(constants)) : .array(nodes)
        case .object(let object):
            guard let (name, arguments) = object.elements.first else { return .literal(expression) }
            guard object.count == 1 else {
                throw LinkError(
                    .invalidRule, "An operation is an object with a single key; this one has \(object.count)",
                    details: ["type": "Unknown Operator", "keys": .array(object.keys.map { .string($0) })])
            }
            guard let op = Operator(rawValue: name) else {
                throw LinkError(
                    .invalidRule, "Unknown operator '\(name)'",
                    details: ["type": "Unknown Operator", "operator": .string(name)])
            }
            return try compile(op, arguments, depth: depth + 1)
        default:
            return .literal(expression)
        }
    }

    private static func compile(_ op: Operator, _ argumentsValue: JSONValue, depth: Int) throws(LinkError) -> Node {
        if op == .preserve { return .literal(argumentsValue) }
        if op.requiresArgumentArray, argumentsValue.arrayValue == nil {
            throw invalidArguments(op, "takes its arguments as a JSON array, not \(argumentsValue.typeName)")
        }
        let arguments = try compileArguments(argumentsValue, depth: depth)
        try validate(op, arguments)
        switch op {
        case .variable: return try variable(arguments)
        case .value: return try scoped(arguments, exists: false)
        case .exists: return try scoped(arguments, exists: true)
        default: return .call(op, arguments)
        }
    }

    /// A JSON array gives one node per element; a single operation computes the list; any other value is the only
    /// argument.
    private static func compileArguments(_ value: JSONValue, depth: Int) throws(LinkError) -> Arguments {
        switch value {
        case .array(let elements):
            return .list(try elements.map { (element) throws(LinkError) in try compile(element, depth: depth) })
        case .object(let object) where object.count == 1:
            return .computed(try compile(value, depth: depth))
        default:
            return .list([try compile(value, depth: depth)])
        }
    }

    /// Arity and shape checks that hold whatever the data.
    private static func validate(_ op: Operator, _ arguments: Arguments) throws(LinkError) {
        guard case .list(let nodes) = arguments else { return }
        let count = nodes.count
        switch op {
        case _ where op.isComparison:
            if count < 2 { throw invalidArguments(op, "compares at least two arguments") }
        case .map, .filter, .all, .some, .none, .reduce:
            let arity = op == .reduce ? 2...3 : 2...2
            guard arity.contains(count) else {
                throw invalidArguments(
                    op, op == .reduce ? "takes [array, expression, initial?]" : "takes [array, expression]")
            }
            if nodes[0].literalValue == .null { throw invalidArguments(op, "iterates over an array, not null") }
            if op == .map || op == .filter || op == .reduce, nodes[1].literalValue == .null {
                throw invalidArguments(op, "needs an expression to apply, not null")
            }
        case .subtract, .divide, .max, .min:
            if count == 0 { throw invalidArguments(op, "needs at least one operand") }
        case .modulo:
            if count < 2 { throw invalidArguments(op, "needs at least two operands") }
        case .in, .missingSome:
            if count != 2 { throw invalidArguments(op, "takes exactly two arguments") }
        case .substr:
            if !(1...3).contains(count) { throw invalidArguments(op, "takes [text, start, length?]") }
        case .throw:
            if count == 0 { throw invalidArguments(op, "needs a value to throw") }
        case .variable:
            if count > 2 { throw invalidArguments(op, "takes [path, default?]") }
        default:
            break
        }
    }

    /// `var` with a constant path becomes a ``Node/variable(_:fallback:)``, its dotted path split once.
    private static func variable(_ arguments: Arguments) throws(LinkError) -> Node {
        guard case .list(let nodes) = arguments else { return .call(.variable, arguments) }
        guard let first = nodes.first else { return .variable(.root, fallback: nil) }
        guard let pathValue = first.literalValue else { return .call(.variable, arguments) }
        guard let path = DataPath(variable: pathValue) else {
            throw invalidArguments(.variable, "takes a path string or number, not \(pathValue.typeName)")
        }
        return .variable(path, fallback: nodes.count > 1 ? nodes[1] : nil)
    }

    /// `val` / `exists` with constant components become ``Node/value(_:)`` / ``Node/exists(_:)``.
    private static func scoped(_ arguments: Arguments, exists: Bool) throws(LinkError) -> Node {
        let op: Operator = exists ? .exists : .value
        guard case .list(let nodes) = arguments else { return .call(op, arguments) }
        let components = nodes.compactMap(\.literalValue)
        guard components.count == nodes.count else { return .call(op, arguments) }
        guard let path = ScopedPath(components: components) else {
            throw invalidArguments(op, "takes keys (strings or numbers), optionally after a [level] to climb")
        }
        return exists ? .exists(path) : .value(path)
    }

    private static func invalidArguments(_ op: Operator, _ problem: String) -> LinkError {
        LinkError(
            .invalidRule, "'\(op.name)' \(problem)",
            details: ["type": "Invalid Arguments", "operator": .string(op.name)])
    }
}
