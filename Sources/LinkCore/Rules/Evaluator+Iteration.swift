extension Evaluator {
    /// `map`, `filter`, `reduce`, `all`, `some`, `none`: `[collection, body]` (`reduce` also takes an initial
    /// value). The body runs once per element, in a scope whose data is the element (for `reduce`,
    /// `{"current": element, "accumulator": value so far}`) and whose metadata is `{"index": i}`.
    ///
    /// `map`, `filter` and `reduce` treat a `null` collection as empty; `all`, `some` and `none` require an array.
    /// `all` is false for an empty array. Anything else is `Invalid Arguments`.
    mutating func iterate(_ op: Operator, _ arguments: Arguments) throws(RuleError) -> JSONValue {
        let nodes = try argumentNodes(op, arguments)
        guard nodes.count >= 2 else { throw .invalidArguments("'\(op.name)' takes [collection, expression]") }
        let elements: [JSONValue]
        switch try evaluate(nodes[0]) {
        case .array(let array):
            elements = array
        case .null where op == .map || op == .filter || op == .reduce:
            elements = []
        case let other:
            throw .invalidArguments("'\(op.name)' iterates over an array, not \(other.typeName) \(other.excerpt)")
        }
        let body = nodes[1]
        switch op {
        case .map:
            return try map(elements, body)
        case .filter:
            return try filter(elements, body)
        case .reduce:
            let initial = nodes.count > 2 ? try evaluate(nodes[2]) : nil
            return try reduce(elements, body, initial: initial)
        case .all:
            if elements.isEmpty { return .bool(false) }
            return .bool(try firstIndex(in: elements, where: body, is: false) == nil)
        case .some:
            return .bool(try firstIndex(in: elements, where: body, is: true) != nil)
        default:
            return .bool(try firstIndex(in: elements, where: body, is: true) == nil)
        }
    }

    private mutating func map(_ elements: [JSONValue], _ body: Node) throws(RuleError) -> JSONValue {
        var results: [JSONValue] = []
        results.reserveCapacity(elements.count)
        let top = pushFrame()
        defer { frames.removeLast() }
        for (index, element) in elements.enumerated() {
            frames[top] = Frame(data: .value(element), index: index)
            results.append(try evaluate(body))
        }
        return .array(results)
    }

    private mutating func filter(_ elements: [JSONValue], _ body: Node) throws(RuleError) -> JSONValue {
        var kept: [JSONValue] = []
        let top = pushFrame()
        defer { frames.removeLast() }
        for (index, element) in elements.enumerated() {
            frames[top] = Frame(data: .value(element), index: index)
            if try evaluate(body).isTruthy { kept.append(element) }
        }
        return .array(kept)
    }

    /// Without an initial value the first element starts the accumulation (and an empty collection gives `null`).
    private mutating func reduce(_ elements: [JSONValue], _ body: Node, initial: JSONValue?) throws(RuleError)
        -> JSONValue
    {
        var remaining = elements[...]
        guard var accumulator = initial ?? remaining.popFirst() else { return .null }
        let offset = elements.count - remaining.count
        let top = pushFrame()
        defer { frames.removeLast() }
        for (position, element) in remaining.enumerated() {
            frames[top] = Frame(data: .reduction(current: element, accumulator: accumulator), index: offset + position)
            let previous = accumulator
            accumulator = try evaluate(body)
            // The only place a rule can nest a value deeper at every step (`[{"var": "accumulator"}]`).
            try checkDepth(accumulator, unchanged: previous)
        }
        return accumulator
    }

    /// The index of the first element for which `body` has the given truthiness; stops there.
    private mutating func firstIndex(in elements: [JSONValue], where body: Node, is truthiness: Bool)
        throws(RuleError) -> Int?
    {
        let top = pushFrame()
        defer { frames.removeLast() }
        for (index, element) in elements.enumerated() {
            frames[top] = Frame(data: .value(element), index: index)
            if try evaluate(body).isTruthy == truthiness { return index }
        }
        return nil
    }

    /// Pushes a placeholder frame for an iteration and returns its position.
    private mutating func pushFrame() -> Int {
        frames.append(Frame(data: .value(.null), index: 0))
        return frames.count - 1
    }
}
