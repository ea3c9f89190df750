import Foundation

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

    /// A token's length of a letter that no token needs to differ from: written in place of one into a page
    /// that is never sent (a `HEAD`'s), never stored.
    static let standIn = String(repeating: "A", count: 24)

    /// Whether `text` could be a token (the right length and alphabet); others are refused before the store.
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 24 && text.utf8.allSatisfy { alphabet.contains($0) }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// URL-safe base64 without padding (RFC 4648 §5): Foundation's base64 with its two symbols swapped.
    static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }
}
