/// A list of byte tokens searched for in one pass: each position of the text is compared only with the tokens
/// that start with its byte (a table of 256 buckets), so the cost grows with the text, not with text × tokens.
struct TokenSet: Sendable {
    private let tokens: [[UInt8]]
    private let ignoringCase: [Bool]
    /// Token indices by first byte; a case-insensitive token is filed under both cases of its first letter.
    private let buckets: [[Int]]

    /// `tokens` with, for each, whether ASCII letters compare case-insensitively (such a token is lower case).
    init(_ entries: [(token: [UInt8], ignoringCase: Bool)]) {
        tokens = entries.map(\.token)
        ignoringCase = entries.map(\.ignoringCase)
        var buckets = [[Int]](repeating: [], count: 256)
        for (index, entry) in entries.enumerated() {
            guard let first = entry.token.first else { continue }
            buckets[Int(first)].append(index)
            if entry.ignoringCase, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") {
                buckets[Int(first & ~0x20)].append(index)
            }
        }
        self.buckets = buckets
    }

    /// The smallest index of a token that occurs in `bytes`, or `nil` (an empty token never matches).
    func firstMatch(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var best = Int.max
        for start in 0..<bytes.count {
            for index in buckets[Int(bytes[start])] where index < best {
                if matches(index, bytes, at: start) { best = index }
            }
            if best == 0 { break }
        }
        return best == Int.max ? nil : best
    }

    /// Whether any token occurs in `bytes`.
    func containsAny(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for start in 0..<bytes.count {
            for index in buckets[Int(bytes[start])] where matches(index, bytes, at: start) { return true }
        }
        return false
    }

    private func matches(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let token = tokens[index]
        guard bytes.count - start >= token.count else { return false }
        let folding = ignoringCase[index]
        return token.withUnsafeBufferPointer { token in
            for offset in 1..<max(1, token.count) {
                var byte = bytes[start + offset]
                if folding, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte |= 0x20 }
                if byte != token[offset] { return false }
            }
            return true
        }
    }
}
