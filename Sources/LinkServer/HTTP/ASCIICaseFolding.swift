extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes start with `prefix` (lower-case ASCII), letters compared in any case (how HTTP compares
    /// header names and media types; only `A`–`Z` are folded).
    func starts(caseInsensitiveWith prefix: StaticString) -> Bool {
        guard count >= prefix.utf8CodeUnitCount else { return false }
        for index in 0..<prefix.utf8CodeUnitCount {
            let byte = self[index]
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if folded != prefix.utf8Start[index] { return false }
        }
        return true
    }
}
