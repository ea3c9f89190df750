/// A number during arithmetic: an exact integer while operands and results are integral and in range, a double
/// otherwise.
enum NumberValue: Sendable, Equatable {
    case int(Int)
    case double(Double)

    /// Coerces `value` the way JavaScript's `Number(value)` does, failing with `NaN` where that yields `NaN`.
    ///
    /// `null` and `false` are 0, `true` is 1, strings are read as decimal (or `0x`/`0o`/`0b`) numbers with
    /// surrounding whitespace ignored and `""` being 0; arrays, objects and other strings are `NaN`.
    init(coercing value: JSONValue) throws(RuleError) {
        switch value {
        case .null: self = .int(0)
        case .bool(let flag): self = .int(flag ? 1 : 0)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text):
            guard let number = NumberValue(parsing: text) else {
                throw .notANumber("\(value.excerpt) is not a number")
            }
            self = number
        case .array, .object:
            throw .notANumber("\(value.typeName) \(value.excerpt) is not a number")
        }
    }

    /// The number `value` holds when it is a JSON number; nil for every other type.
    init?(exactly value: JSONValue) {
        switch value {
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        default: return nil
        }
    }

    var doubleValue: Double {
        switch self {
        case .int(let number): return Double(number)
        case .double(let number): return number
        }
    }

    /// The number as an integer, truncating any fraction and clamping to the range of `Int`.
    var truncatedInt: Int {
        switch self {
        case .int(let number): return number
        case .double(let number):
            if number.isNaN { return 0 }
            if number >= 9.2e18 { return Int.max }
            if number <= -9.2e18 { return Int.min }
            return Int(number.rounded(.towardZero))
        }
    }

    /// The JSON value of the number; `NaN` when it is not finite (JSON has no infinities).
    func json() throws(RuleError) -> JSONValue {
        switch self {
        case .int(let number): return .int(number)
        case .double(let number):
            guard number.isFinite else { throw .notANumber("the result is not a finite number") }
            return .double(number == 0 ? 0 : number)
        }
    }

    /// -1, 0 or 1 as `lhs` is less than, equal to or greater than `rhs`, comparing integers exactly.
    static func compare(_ lhs: NumberValue, _ rhs: NumberValue) -> Int {
        switch (lhs, rhs) {
        case (.int(let left), .int(let right)):
            return left < right ? -1 : (left == right ? 0 : 1)
        case (.int(let left), .double(let right)):
            return -compare(double: right, int: left)
        case (.double(let left), .int(let right)):
            return compare(double: left, int: right)
        case (.double(let left), .double(let right)):
            return left < right ? -1 : (left == right ? 0 : 1)
        }
    }

    private static func compare(double: Double, int: Int) -> Int {
        let converted = Double(int)
        if double < converted { return -1 }
        if double > converted { return 1 }
        // Equal once rounded to a double: settle it exactly when the double is an integer in range.
        guard double.magnitude < 9.2e18, let exact = Int(exactly: double) else { return 0 }
        return exact < int ? -1 : (exact == int ? 0 : 1)
    }
}

extension NumberValue {
    /// Reads `text` like JavaScript's `Number(text)`; nil where that yields `NaN`.
    init?(parsing text: String) {
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else {
            self = .int(0)
            return
        }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        let trimmed = Substring(scalars[start...end])
        guard trimmed.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        if let radixNumber = NumberValue.radixLiteral(trimmed) {
            self = radixNumber
            return
        }
        var body = trimmed
        var negative = false
        if let sign = body.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            body = body.dropFirst()
        }
        if body == "Infinity" {
            self = .double(negative ? -.infinity : .infinity)
            return
        }
        guard let isIntegral = NumberValue.decimalShape(body) else { return nil }
        if isIntegral, let integer = Int(trimmed) {
            self = .int(integer)
            return
        }
        // The shape was validated above, so `Double` sees neither hex floats nor "inf"/"nan" spellings.
        var normalized = String(body)
        if normalized.hasPrefix(".") { normalized = "0" + normalized }
        normalized = normalized.replacingDotBeforeExponent()
        guard let magnitude = Double(normalized) else { return nil }
        self = .double(negative ? -magnitude : magnitude)
    }

    /// Whether `body` (unsigned) is `digits[.digits][e[±]digits]` or `.digits[…]`, and whether it is integral
    /// in form (no fraction, no exponent); nil when it is neither.
    private static func decimalShape(_ body: Substring) -> Bool? {
        let bytes = Array(body.utf8)
        var position = 0
        func digits() -> Int {
            let begin = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            return position - begin
        }
        var mantissaDigits = digits()
        var integral = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            integral = false
            position += 1
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return nil }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            integral = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { return nil }
        }
        return position == bytes.count ? integral : nil
    }

    /// `0x1F`, `0o17`, `0b11` (unsigned, as in JavaScript).
    private static func radixLiteral(_ text: Substring) -> NumberValue? {
        guard text.count > 2, text.hasPrefix("0") else { return nil }
        let radix: Int
        switch text.dropFirst().first {
        case "x", "X": radix = 16
        case "o", "O": radix = 8
        case "b", "B": radix = 2
        default: return nil
        }
        let digits = text.dropFirst(2)
        guard digits.allSatisfy({ $0.isHexDigit }) else { return nil }
        if let integer = Int(digits, radix: radix) { return .int(integer) }
        return nil
    }
}

extension String {
    /// `"5.e3"` → `"5e3"` and `"5."` → `"5"`: `Double(_:)` wants digits after a decimal point.
    fileprivate func replacingDotBeforeExponent() -> String {
        guard let dot = firstIndex(of: ".") else { return self }
        let next = index(after: dot)
        if next == endIndex { return String(self[..<dot]) }
        if self[next] == "e" || self[next] == "E" { return String(self[..<dot]) + String(self[next...]) }
        return self
    }
}
