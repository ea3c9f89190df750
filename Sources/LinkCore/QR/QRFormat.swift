/// The image format of a QR code (API.md §10).
public enum QRFormat: String, Sendable, Hashable, CaseIterable {
    /// Scalable vector graphics with a `viewBox` in modules; the default.
    case svg
    /// A 1-bit grayscale PNG of exactly `size` × `size` pixels.
    case png
}
