import CQREncode
import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// Encodes text as a QR symbol with libqrencode (API.md §10): byte for byte in 8-bit mode with case preserved,
/// at the smallest version that holds it at the requested level.
enum QREncoder {
    /// The symbol for `text`; `invalid_request` (details `bytes`, `max`, `ecc`) when it is longer than version 40
    /// holds at `errorCorrection`.
    static func symbol(for text: String, errorCorrection: QRErrorCorrection) throws -> QRSymbol {
        try QRRequest.checkCapacity(text, errorCorrection: errorCorrection)
        let level = errorCorrection.level
        // The last argument 1 keeps letters as they are (0 upper-cases them); version 0 picks the smallest.
        var code = QRcode_encodeString(text, 0, level, QR_MODE_8, 1)
        if code == nil && errno == ERANGE {
            // libqrencode may split the text into numeric, alphanumeric and 8-bit segments; should that ever cost
            // more than 8-bit mode alone, the text still fits as one 8-bit segment (checked above).
            code = QRcode_encodeString8bit(text, 0, level)
        }
        guard let code else { throw QRImageError.encodingFailed(errno: errno) }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        // Bit 0 of each byte is the module's colour (1: dark); the other bits describe its role.
        return QRSymbol(version: Int(code.pointee.version), width: width, modules: data.map { $0 & 1 == 1 })
    }
}

extension QRErrorCorrection {
    /// libqrencode's name for the level.
    fileprivate var level: QRecLevel {
        switch self {
        case .low: QR_ECLEVEL_L
        case .medium: QR_ECLEVEL_M
        case .quartile: QR_ECLEVEL_Q
        case .high: QR_ECLEVEL_H
        }
    }
}
