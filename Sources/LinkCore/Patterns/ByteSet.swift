/// A set of ASCII bytes as a 128-bit mask: the characters a context lets through without percent-encoding.
struct ByteSet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ characters: String) {
        for byte in characters.utf8 { insert(byte) }
    }

    mutating func insert(_ byte: UInt8) {
        precondition(byte < 0x80, "ByteSet holds ASCII only")
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
        return false
    }

    func union(_ other: ByteSet) -> ByteSet {
        var result = self
        result.low |= other.low
        result.high |= other.high
        return result
    }
}

extension ByteSet {
    /// RFC 3986 unreserved characters: `A–Z a–z 0–9 - . _ ~`.
    static let unreserved = ByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// What stays raw in a path segment: RFC 3986 `pchar` (unreserved, sub-delims, `:` and `@`).
    /// `/`, `?`, `#`, `%`, space, controls and all non-ASCII bytes are encoded.
    static let pathSegment = unreserved.union(ByteSet("!$&'()*+,;=:@"))

    /// What stays raw in a query key or value: `pchar` and `/ ?` minus `& = +` (item and pair separators, and
    /// `+`, which form decoders would read as a space).
    static let queryComponent = unreserved.union(ByteSet("!$'()*,;:@/?"))

    /// What stays raw in a pattern's literal segment when a pattern is written back as text: every printable
    /// ASCII character except `% / ? #` (non-ASCII is kept raw too, so patterns stay readable).
    static let patternLiteral: ByteSet = {
        var set = ByteSet("")
        for byte in UInt8(0x21)..<0x7F where !"%/?#".utf8.contains(byte) { set.insert(byte) }
        return set
    }()
}
