import LinkTestSupport
import Testing

@testable import LinkCore

/// The 1-bit pixel rows a PNG is written from (API.md §10).
@Suite struct QRBitmapTests {
    static let cases: [(size: Int, margin: Int)] = [(64, 0), (64, 4), (100, 3), (513, 16), (2048, 2)]

    /// Every pixel is black exactly when it falls inside a dark module where the geometry places it.
    @Test(arguments: cases)
    func pixelsFollowTheGeometry(_ size: Int, _ margin: Int) throws {
        let width = 21
        var generator = SplitMix64(seed: UInt64(size * 31 + margin))
        let symbol = QRSymbol(
            version: 1, width: width, modules: (0..<(width * width)).map { _ in generator.next() & 1 == 1 })
        let geometry = try QRGeometry(size: size, modules: width, margin: margin)
        let bitmap = QRBitmap(symbol, geometry: geometry)
        #expect(bitmap.size == size)
        #expect(bitmap.rowBytes == (size + 7) / 8)
        #expect(bitmap.pixels.count == bitmap.rowBytes * size)
        let end = geometry.offset + width * geometry.modulePixels
        for y in 0..<size {
            for x in 0..<size {
                let inside = (geometry.offset..<end).contains(x) && (geometry.offset..<end).contains(y)
                let dark =
                    inside
                    && symbol[
                        (x - geometry.offset) / geometry.modulePixels, (y - geometry.offset) / geometry.modulePixels]
                if bitmap.isBlack(x: x, y: y) != dark {
                    Issue.record("pixel \(x), \(y) of \(size) px, margin \(margin)")
                    return
                }
            }
        }
    }

    @Test func paddingBitsAreWhite() throws {
        let symbol = QRSymbol(version: 1, width: 1, modules: [true])
        let bitmap = QRBitmap(symbol, geometry: try QRGeometry(size: 67, modules: 1, margin: 0))
        // One module of 67 pixels: every row is 67 black bits then 5 white padding bits.
        #expect(bitmap.pixels.count == 67 * 9)
        for row in 0..<67 {
            #expect(Array(bitmap.pixels[(row * 9)..<(row * 9 + 9)]) == [0, 0, 0, 0, 0, 0, 0, 0, 0x1F])
        }
    }
}
