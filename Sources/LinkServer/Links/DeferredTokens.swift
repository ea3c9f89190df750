/// Deferred-link tokens (API.md §9): 144 random bits from the system's secure generator (`getrandom`), URL-safe
/// base64 without padding (24 characters).
enum DeferredTokens {
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        for _ in 0..<3 { withUnsafeBytes(of: generator.next() as UInt64) { bytes += $0 } }
        bytes.removeLast(6)
        return base64URL(bytes)
    }

    /// Whether `text` could be a token (the right length and alphabet); others are refused before the store.
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 24 && text.utf8.allSatisfy { alphabet.contains($0) }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// URL-safe base64 without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for position in 0..<(chunk.count + 1) {
                output.append(alphabet[Int((value >> (18 - 6 * UInt32(position))) & 63)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
