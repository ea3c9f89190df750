/// Finding the first byte of a text that must be escaped eight bytes at a time, for the writers of answers
/// (``JSONWriter``) and pages (`HTMLBytes`): nearly every text has none, and a byte-by-byte test cost ~6 instructions
/// a byte.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The high bit set in every byte of `word` equal to `byte` (xor makes it zero; subtracting one borrows into the
    /// high bit of a zero byte, and `~x` leaves out bytes that had it already). Exact when it is zero: a borrow can
    /// also mark the byte above a matching one, never a byte when none matches.
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highBits
    }

    /// The high bit set in every byte of `word` below 0x20 (a control character), found the same way; bytes of
    /// 0x80 and above are left out by `~word`.
    @inline(__always)
    static func control(_ word: UInt64) -> UInt64 {
        (word &- ones &* 0x20) & ~word & highBits
    }

    /// The position of the first byte of `bytes` for which `stops` holds, or their count: eight bytes at a time while
    /// `mayStop` (exact when it says no, like ``equal(_:_:)``) says none of them does, then one at a time.
    @inline(__always)
    static func firstIndex(
        in bytes: UnsafeBufferPointer<UInt8>, mayStop: (UInt64) -> Bool, stops: (UInt8) -> Bool
    ) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var index = 0
        while index + 8 <= bytes.count, !mayStop(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
            index += 8
        }
        while index < bytes.count, !stops(base[index]) { index += 1 }
        return index
    }
}
