extension QRRequest {
    /// The entity tag of the image this request gives: a quoted FNV-1a 64-bit hash (16 hex digits) of the
    /// normalised parameters and the URL, so every instance answers with the same one (API.md §10). A change to
    /// how images are drawn changes the `qr1` prefix.
    public var entityTag: String {
        let text = "qr1\n\(format.rawValue)\n\(size)\n\(margin)\n\(errorCorrection.rawValue)\n\(url)"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }
}
