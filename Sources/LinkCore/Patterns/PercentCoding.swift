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
        text.withUTF8Bytes { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if allowed.contains(byte) || (rawNonASCII && byte >= 0x80) { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
    }

    /// `text` with every byte outside `allowed` written as `%XX`; `text` itself when nothing needs escaping.
    static func encode(_ text: String, allowing allowed: ByteSet, rawNonASCII: Bool = false) -> String {
        if text.utf8.allSatisfy({ allowed.contains($0) || (rawNonASCII && $0 >= 0x80) }) { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3)
        encode(text, allowing: allowed, rawNonASCII: rawNonASCII, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
