/// A symbol drawn as a 1-bit grayscale image, the pixel layout of a PNG with bit depth 1: `size` rows of
/// ``rowBytes`` bytes, most significant bit first, 0 black and 1 white (padding bits at the end of a row are 1).
public struct QRBitmap: Sendable, Hashable {
    /// Width and height in pixels.
    public let size: Int
    /// Bytes per row: `ceil(size / 8)`.
    public let rowBytes: Int
    /// `size` × ``rowBytes`` bytes, top row first.
    public let pixels: [UInt8]

    /// Draws `symbol` where `geometry` puts it, on white.
    public init(_ symbol: QRSymbol, geometry: QRGeometry) {
        precondition(symbol.width == geometry.modules, "the geometry is for another symbol")
        size = geometry.size
        rowBytes = (size + 7) / 8
        let white = [UInt8](repeating: 0xFF, count: rowBytes)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(rowBytes * size)
        for _ in 0..<geometry.offset { pixels += white }
        for y in 0..<symbol.width {
            var row = white
            for run in symbol.darkRuns(row: y) {
                let start = geometry.offset + run.start * geometry.modulePixels
                for x in start..<(start + run.length * geometry.modulePixels) {
                    row[x >> 3] &= ~(0x80 >> UInt8(x & 7))
                }
            }
            for _ in 0..<geometry.modulePixels { pixels += row }
        }
        while pixels.count < rowBytes * size { pixels += white }
        self.pixels = pixels
    }

    /// Whether the pixel in column `x`, row `y` is black.
    public func isBlack(x: Int, y: Int) -> Bool {
        (pixels[y * rowBytes + (x >> 3)] & (0x80 >> UInt8(x & 7))) == 0
    }
}
