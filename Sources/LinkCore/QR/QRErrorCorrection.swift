/// The error-correction level of a QR code (API.md §10): how much of the symbol may be damaged and still read,
/// paid for in capacity.
public enum QRErrorCorrection: String, Sendable, Hashable, CaseIterable {
    /// About 7 % of the codewords can be restored.
    case low = "L"
    /// About 15 %; the default.
    case medium = "M"
    /// About 25 %.
    case quartile = "Q"
    /// About 30 %.
    case high = "H"

    /// The most bytes a version-40 symbol holds at this level in 8-bit mode (ISO/IEC 18004 table 7).
    public var maxBytes: Int {
        switch self {
        case .low: 2953
        case .medium: 2331
        case .quartile: 1663
        case .high: 1273
        }
    }
}
