/// Where a symbol's modules fall in a `size` × `size` image (API.md §10).
///
/// Each module is `floor(size / (modules + 2 × margin))` pixels; the pixels left over widen the quiet zone,
/// half on each side (the odd one to the right and bottom).
public struct QRGeometry: Sendable, Hashable {
    /// Width and height of the image in pixels.
    public let size: Int
    /// Modules per side of the symbol, without the quiet zone.
    public let modules: Int
    /// The requested quiet zone in modules.
    public let margin: Int
    /// Pixels per module side.
    public let modulePixels: Int
    /// Pixels from the left (and top) edge of the image to the symbol's first module.
    public let offset: Int

    /// The geometry of a `modules`-wide symbol with a `margin`-module quiet zone in `size` pixels;
    /// `invalid_request` with details `minSize` (the smallest size that gives a module one pixel) when a module
    /// would be less than one pixel.
    public init(size: Int, modules: Int, margin: Int) throws(LinkError) {
        let span = modules + 2 * margin
        let modulePixels = size / span
        guard modulePixels > 0 else {
            throw LinkError(
                .invalidRequest,
                "A size of \(size) pixels is too small for \(span) modules (the symbol and its quiet zone); use at least \(span)",
                details: ["field": "size", "size": .int(size), "minSize": .int(span), "modules": .int(modules)])
        }
        self.size = size
        self.modules = modules
        self.margin = margin
        self.modulePixels = modulePixels
        self.offset = margin * modulePixels + (size - span * modulePixels) / 2
    }

    /// Modules per side including the quiet zone on both sides.
    public var span: Int { modules + 2 * margin }
}
