/// The SHA-256 fingerprint of an Android app's signing certificate (API.md §7 "Settings"), in the canonical form
/// assetlinks.json needs: 32 upper-case hex pairs joined by `:`.
///
/// Lower case and missing colons are normalised: `14:6d:…`, `146DE983…` (64 digits) and `146de983…` all give
/// `14:6D:E9:83:…`. It must be the app-signing key's (Play Console → App signing), not the upload key's.
public struct CertificateFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    public let bytes: [UInt8]

    /// Parses and normalises `text`.
    ///
    /// - Parameter field: the setting named in the error.
    /// - Throws: `invalid_request` naming `field` and `text` (``LinkError/invalidSetting(_:value:reason:)``).
    public init(_ text: String, field: String = "links.apps.android.sha256CertFingerprints") throws(LinkError) {
        guard let bytes = Self.parse(Array(text.utf8)) else {
            throw .invalidSetting(
                field, value: text,
                reason: "a SHA-256 fingerprint is 32 hex pairs joined by ':' (or 64 hex digits)")
        }
        self.bytes = bytes
    }

    /// The canonical form of `text`, or `nil` when it is not a SHA-256 fingerprint.
    public static func canonical(_ text: String) -> String? {
        parse(Array(text.utf8)).map { CertificateFingerprint(validated: $0).description }
    }

    private init(validated bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// `14:6D:E9:…:E5`.
    public var description: String {
        var text: [UInt8] = []
        text.reserveCapacity(95)
        for (index, byte) in bytes.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ":")) }
            text.append(Self.hexDigits[Int(byte >> 4)])
            text.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// The 32 bytes of `text` written as `XX:XX:…` (95 characters) or `XXXX…` (64), any case.
    private static func parse(_ text: [UInt8]) -> [UInt8]? {
        let separated: Bool
        switch text.count {
        case 95: separated = true
        case 64: separated = false
        default: return nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        let stride = separated ? 3 : 2
        for index in 0..<32 {
            let start = index * stride
            if separated, index > 0, text[start - 1] != UInt8(ascii: ":") { return nil }
            guard let high = hexValue(text[start]), let low = hexValue(text[start + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
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
