/// Text conversions shaped after JavaScript's `String(value)`, which JSON Logic's string operators assume.
enum StringCoercion {
    /// The text of `value`: numbers as JavaScript prints them (`2`, `0.5`, `1e-7`), `true`/`false`, `null`, array
    /// elements joined by commas (with `null` elements empty), and `[object Object]` for objects.
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

    /// A double as JavaScript's `Number.prototype.toString()` prints it: the shortest digits that round-trip, in
    /// positional notation from 1e-6 up to 1e21 (`2`, not `2.0`; `0.000001`; `100000000000000000000`) and in
    /// exponent notation outside it (`1e-7`, `1e+21`).
    static func text(of number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == 0 { return "0" }
        // Swift's description has the same shortest round-trip digits; only the layout differs.
        let description = number.magnitude.description
        let sign = number < 0 ? "-" : ""
        var digits = ""
        var exponent: Int
        if let e = description.firstIndex(of: "e") {
            let mantissa = description[..<e]
            exponent = Int(description[description.index(after: e)...]) ?? 0
            digits = mantissa.filter { $0 != "." }
        } else {
            let parts = description.split(separator: ".", omittingEmptySubsequences: false)
            let whole = parts[0] == "0" ? "" : String(parts[0])
            let fraction = parts.count > 1 ? String(parts[1]) : ""
            digits = whole + fraction
            exponent = whole.isEmpty ? -1 : whole.count - 1
            if whole.isEmpty {
                let zeros = fraction.prefix { $0 == "0" }.count
                digits = String(fraction.dropFirst(zeros))
                exponent = -zeros - 1
            }
        }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        if exponent < -6 || exponent > 20 {
            let mantissa = digits.count > 1 ? "\(digits.prefix(1)).\(digits.dropFirst())" : digits
            return "\(sign)\(mantissa)e\(exponent < 0 ? "-" : "+")\(abs(exponent))"
        }
        if exponent < 0 { return sign + "0." + String(repeating: "0", count: -exponent - 1) + digits }
        let wholeCount = exponent + 1
        if digits.count <= wholeCount {
            return sign + digits + String(repeating: "0", count: wholeCount - digits.count)
        }
        return sign + digits.prefix(wholeCount) + "." + digits.dropFirst(wholeCount)
    }
}
