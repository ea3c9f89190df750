extension Evaluator {
    /// `cat`: the text of every argument that is not `null`, concatenated (numbers as `1` or `1.5`, arrays with
    /// their elements joined by commas).
    mutating func concatenate(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        var text = ""
        for value in try argumentValues(arguments) where !value.isNull {
            try chargeCoercion(value)
            StringCoercion.append(value, to: &text)
            try charge(text.utf8.count)
        }
        return .string(text)
    }

    /// `substr`: `[text, start, length?]` with JavaScript's `substr` semantics, counted in Unicode scalars. A
    /// negative start counts from the end; a negative length stops that many scalars before the end.
    mutating func substring(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        let values = try argumentValues(arguments)
        try chargeCoercion(values.first ?? .null)
        let text = StringCoercion.string(from: values.first ?? .string(""))
        // Splitting into scalars costs the whole text on every call, whatever the length asked for.
        try charge(text.utf8.count)
        let source = Array(text.unicodeScalars)
        let count = source.count
        var start = values.count > 1 ? try NumberValue(coercing: values[1]).truncatedInt : 0
        start = start < 0 ? Swift.max(0, count &+ start) : Swift.min(start, count)
        var end = count
        if values.count > 2, !values[2].isNull {
            let length = try NumberValue(coercing: values[2]).truncatedInt
            end = length < 0 ? Swift.max(start, count &+ length) : Swift.min(count, start &+ Swift.min(length, count))
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: source[start..<end])
        return .string(String(result))
    }

    /// `in`: `[needle, haystack]` — whether a string haystack contains the needle's text, or an array haystack
    /// contains an element strictly equal to the needle; `false` for any other haystack.
    mutating func contains(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        let needle: JSONValue
        let haystack: JSONValue
        if case .list(let nodes) = arguments, nodes.count == 2 {
            needle = try evaluate(nodes[0])
            haystack = try evaluate(nodes[1])
        } else {
            let values = try argumentValues(arguments)
            needle = values.first ?? .null
            haystack = values.count > 1 ? values[1] : .null
        }
        switch haystack {
        case .string(let text):
            try chargeCoercion(needle)
            let pattern = StringCoercion.string(from: needle)
            // The search is linear (Knuth–Morris–Pratt), so this is what it really costs.
            try charge(text.utf8.count + pattern.utf8.count)
            return .bool(Evaluator.text(text, contains: pattern))
        case .array(let elements):
            // Comparing with an array or an object walks each element that is one too: the haystack's whole size.
            try charge(needle.isContainer ? Evaluator.coercionCost(haystack, limit: budget) : elements.count)
            return .bool(elements.contains { Comparison.strictlyEqual($0, needle) })
        default:
            return .bool(false)
        }
    }

    /// `merge`: the arguments flattened one level into a single array (`null` and other non-arrays are kept as
    /// elements).
    mutating func merge(_ arguments: Arguments) throws(RuleError) -> JSONValue {
        var merged: [JSONValue] = []
        for value in try argumentValues(arguments) {
            if case .array(let elements) = value {
                try charge(elements.count)
                merged.append(contentsOf: elements)
            } else {
                try charge(1)
                merged.append(value)
            }
        }
        return .array(merged)
    }

    /// Whether the UTF-8 of `needle` occurs in that of `text`, in time linear in both (Knuth–Morris–Pratt: a
    /// naive scan is O(text × needle), 41 s of a worker for one 950 KB request).
    static func text(_ text: String, contains needle: String) -> Bool {
        var text = text
        var needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { pattern in
                guard !pattern.isEmpty else { return true }
                guard pattern.count <= haystack.count else { return false }
                // failure[i]: the length of the longest proper border of pattern[0...i].
                var failure = [Int](repeating: 0, count: pattern.count)
                var border = 0
                for index in 1..<pattern.count {
                    while border > 0 && pattern[index] != pattern[border] { border = failure[border - 1] }
                    if pattern[index] == pattern[border] { border += 1 }
                    failure[index] = border
                }
                var matched = 0
                for byte in haystack {
                    while matched > 0 && byte != pattern[matched] { matched = failure[matched - 1] }
                    if byte == pattern[matched] { matched += 1 }
                    if matched == pattern.count { return true }
                }
                return false
            }
        }
    }
}
