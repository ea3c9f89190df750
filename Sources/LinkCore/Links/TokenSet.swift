/// A list of byte tokens searched for in one pass: each position of the text is compared only with the tokens
/// that start with its byte (a table of 256 buckets), so the cost grows with the text, not with text × tokens.
/// A bit per pair of bytes that starts some token skips, with one load, the positions where none can start: in
/// an ordinary agent that is nearly all of them.
struct TokenSet: Sendable {
    private let tokens: [[UInt8]]
    private let ignoringCase: [Bool]
    /// Token indices by first byte; a case-insensitive token is filed under both cases of its first letter.
    private let buckets: [[Int]]
    /// Bit `first << 8 | second` is set when a token starts with those two bytes (each letter of a
    /// case-insensitive token in both cases); a one-byte token sets every pair it starts.
    private let startPairs: [UInt64]

    /// `tokens` with, for each, whether ASCII letters compare case-insensitively (such a token is lower case).
    init(_ entries: [(token: [UInt8], ignoringCase: Bool)]) {
        tokens = entries.map(\.token)
        ignoringCase = entries.map(\.ignoringCase)
        var buckets = [[Int]](repeating: [], count: 256)
        var startPairs = [UInt64](repeating: 0, count: 65_536 / 64)
        for (index, entry) in entries.enumerated() {
            guard let first = entry.token.first else { continue }
            let firsts = TokenSet.spellings(first, ignoringCase: entry.ignoringCase)
            for byte in firsts { buckets[Int(byte)].append(index) }
            let seconds =
                entry.token.count > 1
                ? TokenSet.spellings(entry.token[1], ignoringCase: entry.ignoringCase) : Array(0...UInt8.max)
            for first in firsts {
                for second in seconds {
                    let pair = Int(first) << 8 | Int(second)
                    startPairs[pair >> 6] |= 1 << UInt64(pair & 63)
                }
            }
        }
        self.buckets = buckets
        self.startPairs = startPairs
    }

    /// `byte`, and its upper-case form too when it is a lower-case letter of a case-insensitive token.
    private static func spellings(_ byte: UInt8, ignoringCase: Bool) -> [UInt8] {
        ignoringCase && byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? [byte, byte & ~0x20] : [byte]
    }

    /// The smallest index of a token that occurs in `bytes`, or `nil` (an empty token never matches).
    func firstMatch(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        firstMatch(in: bytes, split: tokens.count).first
    }

    /// Whether any token occurs in `bytes`.
    func containsAny(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstMatch(in: bytes, split: 0).anyFromSplit
    }

    /// In one pass over `bytes`: the smallest index below `split` of a token that occurs, and whether any token from
    /// `split` on occurs (two lists searched for the price of one).
    func firstMatch(in bytes: UnsafeBufferPointer<UInt8>, split: Int) -> (first: Int?, anyFromSplit: Bool) {
        var best = Int.max
        var anyFromSplit = false
        forEachPossibleStart(in: bytes) { start in
            for index in buckets[Int(bytes[start])] {
                if index < split {
                    if index < best, matches(index, bytes, at: start) { best = index }
                } else if !anyFromSplit, matches(index, bytes, at: start) {
                    anyFromSplit = true
                }
            }
            return !((best == 0 || split == 0) && (anyFromSplit || split == tokens.count))
        }
        return (best == Int.max ? nil : best, anyFromSplit)
    }

    /// Calls `body` with each position of `bytes` where a token may start, in order, until it returns false: the
    /// positions whose byte and the next start a token, and the last one.
    @inline(__always)
    private func forEachPossibleStart(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Bool) {
        guard !bytes.isEmpty else { return }
        startPairs.withUnsafeBufferPointer { pairs in
            let last = bytes.count - 1
            var start = 0
            while start < last {
                let pair = Int(bytes[start]) &<< 8 | Int(bytes[start + 1])
                if pairs[pair &>> 6] & (1 &<< UInt64(pair & 63)) != 0, !body(start) { return }
                start += 1
            }
            _ = body(last)
        }
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
