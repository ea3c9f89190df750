import OrderedCollections

extension Evaluator {
    /// `if` / `?:`: `[c1, v1, c2, v2, …, else]` is the value after the first truthy condition, else the last
    /// odd argument, else `null`. Only the conditions up to the first truthy one and the chosen value are evaluated.
    mutating func condition(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        let nodes = try argumentNodes(.condition, arguments)
        var position = 0
        while position + 1 < nodes.count {
            if try evaluate(nodes[position]).isTruthy { return try evaluate(nodes[position + 1]) }
            position += 2
        }
        return position < nodes.count ? try evaluate(nodes[position]) : .null
    }

    /// `and`: the first falsy argument, else the last one; `false` without arguments. Stops at the first falsy one.
    mutating func conjunction(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        var last: JSONValue = .bool(false)
        for node in try argumentNodes(.and, arguments) {
            last = try evaluate(node)
            if !last.isTruthy { return last }
        }
        return last
    }

    /// `or`: the first truthy argument, else the last one; `false` without arguments. Stops at the first truthy one.
    mutating func disjunction(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        var last: JSONValue = .bool(false)
        for node in try argumentNodes(.or, arguments) {
            last = try evaluate(node)
            if last.isTruthy { return last }
        }
        return last
    }

    /// `??`: the first argument that is not `null`, else `null`. Stops at the first such one.
    mutating func coalesce(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        switch arguments {
        case .list(let nodes):
            for node in nodes {
                let value = try evaluate(node)
                if !value.isNull { return value }
            }
            return .null
        case .computed(let node):
            let value = try evaluate(node)
            guard case .array(let elements) = value else { return value }
            return elements.first { !$0.isNull } ?? .null
        }
    }

    /// `try`: the value of the first argument that evaluates without error. Each fallback runs with the previous
    /// error as its data (`{"type": …}`, one scope above the `try`'s own data); when every argument fails, the last
    /// error propagates. A single non-array argument is simply evaluated.
    mutating func attempt(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        guard case .list(let nodes) = arguments else { return try firstArgument(arguments) }
        var lastError: RuleError?
        for node in nodes {
            do throws(RuleError) {
                guard let previous = lastError else { return try evaluate(node) }
                frames.append(Frame(data: .value(previous.tryContext), index: nil))
                defer { frames.removeLast() }
                return try evaluate(node)
            } catch {
                lastError = error
            }
        }
        if let lastError { throw lastError }
        return .null
    }

    /// `throw`: fails with the argument as the error type, or with its `type` member when it is an object that has
    /// one (so a `try` fallback can rethrow the error it received with `{"throw": {"val": []}}`).
    mutating func raise(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        let thrown = try firstArgument(arguments)
        // The thrown value is the error's type, written out in the answer: charged as a result is.
        try charge(Evaluator.coercionCost(thrown, limit: budget))
        if case .object(let object) = thrown, let type = object["type"] {
            throw RuleError(type: type, message: "The rule threw \(thrown.excerpt)")
        }
        throw RuleError(type: thrown, message: "The rule threw \(thrown.excerpt)")
    }
}
