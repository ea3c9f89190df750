/// Percent-encoding and -decoding over UTF-8 (RFC 3986 §2.1), shared by patterns, locations and queries.
///
/// Decoding turns every `%XX` into its byte and requires the result to be valid UTF-8. Encoding writes every byte
/// outside an allowed ``ByteSet`` as `%XX` with upper-case hex digits.
enum PercentCoding {
    /// Why a piece of text could not be decoded.
    enum Failure: Error, Equatable {
        /// A `%` not followed by two hex digits.
        case malformedEscape
        /// The decoded bytes are not valid UTF-8.
        case invalidUTF8
        /// The decoded text holds a control character (C0, DEL or C1).
        case controlCharacter
    }

    /// Decodes the `%XX` escapes of `bytes`.
    ///
    /// `+` is a literal plus (API.md §2). `allowControls` says whether decoded control characters are accepted
    /// (query components) or not (path segments).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, allowControls: Bool) throws(Failure) -> String {
        guard bytes.contains(UInt8(ascii: "%")) else {
            // Raw input comes from a Swift `String`, so it is valid UTF-8; raw controls were rejected earlier.
            return String(decoding: bytes, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { throw .malformedEscape }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        if !allowControls, containsControl(decoded) { throw .controlCharacter }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw .invalidUTF8 }
        return text
    }

    /// Decodes a string's escapes; see ``decode(_:allowControls:)``.
    static func decode(_ text: String, allowControls: Bool) throws(Failure) -> String {
        return try text.withUTF8Buffer { (buffer) throws(Failure) -> String in
            try decode(buffer, allowControls: allowControls)
        }
    }

    /// Whether `bytes` (UTF-8) hold a C0 control, DEL, or a C1 control (U+0080–U+009F, encoded `C2 80`–`C2 9F`).
    static func containsControl(_ bytes: some Collection<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F { return true }
            if previous == 0xC2 && byte >= 0x80 && byte <= 0x9F { return true }
            previous = byte
        }
        return false
    }

    /// Appends `text` to `output`, writing every byte outside `allowed` as `%XX`.
    ///
    /// With `rawNonASCII`, bytes of non-ASCII characters are kept as they are (IRI style, used for patterns).
    static func encode(_ text: String, allowing allowed: ByteSet, rawNonASCII: Bool = false, into output: inout [UInt8])
    {
        let room = text.utf8.count * 3
        guard room > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { scratch in
            let count = encode(text, allowing: allowed, rawNonASCII: rawNonASCII, writingAt: scratch.baseAddress!)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<count]))
        }
    }

    /// Appends `text` to `output`, writing every byte outside `allowed` as `%XX`.
    static func encode(_ text: String, allowing allowed: ByteSet, into output: inout ByteOutput) {
        output.append(atMost: text.utf8.count * 3) { encode(text, allowing: allowed, writingAt: $0) }
    }

    /// Writes `text` at `output`, every byte outside `allowed` as `%XX`, and returns how many bytes it wrote;
    /// `output` must have room for three bytes per byte of `text`. For a caller that writes a whole location into
    /// one buffer: appending to an array checked its capacity and uniqueness at every piece.
    static func encode(
        _ text: String, allowing allowed: ByteSet, rawNonASCII: Bool = false,
        writingAt output: UnsafeMutablePointer<UInt8>
    ) -> Int {
        text.withUTF8Bytes { bytes in
            var written = 0
            for byte in bytes {
                if allowed.contains(byte) || (rawNonASCII && byte >= 0x80) {
                    output[written] = byte
                    written += 1
                } else {
                    output[written] = UInt8(ascii: "%")
                    output[written + 1] = hexDigit(byte >> 4)
                    output[written + 2] = hexDigit(byte & 0x0F)
                    written += 3
                }
            }
            return written
        }
    }

    /// The upper-case hex digit of a value below 16.
    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") - 10 + value
    }

    /// `text` with every byte outside `allowed` written as `%XX`; `text` itself when nothing needs escaping.
    static func encode(_ text: String, allowing allowed: ByteSet, rawNonASCII: Bool = false) -> String {
        if text.utf8.allSatisfy({ allowed.contains($0) || (rawNonASCII && $0 >= 0x80) }) { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3)
        encode(text, allowing: allowed, rawNonASCII: rawNonASCII, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
