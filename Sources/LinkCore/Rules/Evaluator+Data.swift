extension Evaluator {
    /// The value at `path` in the current scope; nil when nothing is there.
    func lookup(_ path: DataPath) -> JSONValue? {
        if frames.isEmpty { return path.resolve(in: root) }
        return frames[frames.count - 1].data.resolve(path)
    }

    /// The value at a `val` path, after climbing its levels; nil when nothing is there.
    func lookup(_ scoped: ScopedPath) -> JSONValue? {
        if scoped.climb == 0 { return lookup(scoped.path) }
        guard let start = scope(climbing: scoped.climb) else { return nil }
        return scoped.path.resolve(in: start)
    }

    /// The scope `levels` above the current one: even levels are the data of enclosing scopes, odd levels the
    /// metadata of the iteration between them (see ``ScopedPath``). Nil above the rule's data.
    private func scope(climbing levels: Int) -> JSONValue? {
        let current = frames.count
        if levels.isMultiple(of: 2) {
            let target = current - levels / 2
            if target < 0 { return nil }
            return target == 0 ? root : frames[target - 1].data.materialized
        }
        let target = current - (levels - 1) / 2
        if target <= 0 { return nil }
        return frames[target - 1].metadata
    }

    /// `var` whose path is computed: `{"var": [{"if": …}, default]}`.
    mutating func computedVariable(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        let pathValue: JSONValue
        var fallbackNode: Node?
        var fallbackValue: JSONValue = .null
        switch arguments {
        case .list(let nodes):
            pathValue = try nodes.first.map { (node) throws(RuleError) in try evaluate(node) } ?? .null
            fallbackNode = nodes.count > 1 ? nodes[1] : nil
        case .computed(let node):
            let value = try evaluate(node)
            if case .array(let elements) = value {
                pathValue = elements.first ?? .null
                if elements.count > 1 { fallbackValue = elements[1] }
            } else {
                pathValue = value
            }
        }
        guard let path = DataPath(variable: pathValue) else {
            throw .invalidArguments(
                "'var' takes a path string or number, not \(pathValue.typeName) \(pathValue.excerpt)")
        }
        if let found = lookup(path) { return found }
        if let fallbackNode { return try evaluate(fallbackNode) }
        return fallbackValue
    }

    /// `val` or `exists` whose path is computed: `{"val": {"cat": ["te", "st"]}}`.
    mutating func computedValue(_ arguments: Arguments, exists: Bool) throws(RuleError) -> JSONValue {
        let components = try argumentValues(arguments)
        guard let path = ScopedPath(components: components) else {
            let name = exists ? Operator.exists.name : Operator.value.name
            throw .invalidArguments("'\(name)' takes keys, optionally after a [level] to climb")
        }
        let found = lookup(path)
        return exists ? .bool(found != nil) : (found ?? .null)
    }

    /// `missing`: the keys (dotted `var` paths) whose value is absent, `null` or `""`. The keys are the arguments,
    /// or the elements of the first argument when it is an array.
    mutating func missing(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        var keys = try argumentValues(arguments)
        if case .array(let elements)? = keys.first { keys = elements }
        return .array(missingKeys(keys))
    }

    /// `missing_some`: `[needed, keys]` is `[]` when at least `needed` of the keys are present, the missing keys
    /// otherwise.
    mutating func missingSome(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        let values = try argumentValues(arguments)
        guard values.count == 2, case .array(let keys) = values[1] else {
            throw .invalidArguments("'missing_some' takes [minimum, [keys…]]")
        }
        let needed = try NumberValue(coercing: values[0]).truncatedInt
        let absent = missingKeys(keys)
        return .array(keys.count - absent.count >= needed ? [] : absent)
    }

    private func missingKeys(_ keys: [JSONValue]) -> [JSONValue] {
        keys.filter { key in
            guard let path = DataPath(variable: key), let value = lookup(path) else { return true }
            return value.isNull || value == .string("")
        }
    }
}
