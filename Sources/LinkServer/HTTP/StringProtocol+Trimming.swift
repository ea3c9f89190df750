extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (header values).
    var trimmingSpaces: String {
        var s = Substring(self)
        while let first = s.first, first == " " || first == "\t" { s.removeFirst() }
        while let last = s.last, last == " " || last == "\t" { s.removeLast() }
        return String(s)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// `range` of these bytes (all of them by default) without its leading and trailing spaces and tabs: what
    /// ``StringProtocol/trimmingSpaces`` cuts, as positions in a header value's bytes.
    func trimmingSpaces(_ range: Range<Int>? = nil) -> Range<Int> {
        var lower = range?.lowerBound ?? 0
        var upper = range?.upperBound ?? count
        while lower < upper, self[lower] == UInt8(ascii: " ") || self[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, self[upper - 1] == UInt8(ascii: " ") || self[upper - 1] == UInt8(ascii: "\t") {
            upper -= 1
        }
        return lower..<upper
    }
}
