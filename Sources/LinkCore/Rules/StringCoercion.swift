/// Text conversions shaped after JavaScript's `String(value)`, which JSON Logic's string operators assume.
enum StringCoercion {
    /// The text of `value`: numbers without a trailing `.0`, `true`/`false`, `null`, array elements joined by
    /// commas (with `null` elements empty), and `[object Object]` for objects.
    static func string(from value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        var output = ""
        append(value, to: &output)
        return output
    }

    /// Appends the text of `value` to `output`.
    static func append(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += String(number)
        case .double(let number): output += text(of: number)
        case .string(let text): output += text
        case .array(let elements):
            for (position, element) in elements.enumerated() {
                if position > 0 { output += "," }
                if !element.isNull { append(element, to: &output) }
            }
        case .object: output += "[object Object]"
        }
    }

    /// A double as JavaScript prints it in the common cases: integral values without a fraction (`2`, not `2.0`),
    /// the shortest round-tripping digits otherwise.
    static func text(of number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == number.rounded(.towardZero), abs(number) < 1e18 { return String(Int(number)) }
        return number.description
    }
}
