import Testing

@testable import LinkCore

/// Module size and placement of a QR image (API.md §10).
@Suite struct QRGeometryTests {
    static let table: [(size: Int, modules: Int, margin: Int, modulePixels: Int, offset: Int)] = [
        (512, 21, 4, 17, 77),  // 29 × 17 = 493: 19 left over, 9 left and 10 right
        (64, 21, 0, 3, 0),  // 63: the one left over goes right
        (64, 25, 16, 1, 19),  // 57: 7 left over, 3 left and 4 right
        (100, 21, 4, 3, 18),
        (2048, 177, 16, 9, 227),  // version 40 with the widest margin
        (2048, 21, 0, 97, 5),
        (177, 177, 0, 1, 0),
    ]

    @Test(arguments: table)
    func placesTheSymbol(_ size: Int, _ modules: Int, _ margin: Int, _ modulePixels: Int, _ offset: Int) throws {
        let geometry = try QRGeometry(size: size, modules: modules, margin: margin)
        #expect(geometry.modulePixels == modulePixels)
        #expect(geometry.offset == offset)
    }

    /// For every size and margin the contract allows: the image is exactly `size`, modules are
    /// `floor(size / span)` pixels, and the quiet zone is at least `margin` modules on each side, the two sides
    /// differing by at most one pixel.
    @Test(arguments: [21, 25, 57, 101, 177])
    func leftoverPixelsWidenTheQuietZoneEvenly(_ modules: Int) throws {
        for size in stride(from: 64, through: 2048, by: 7) {
            for margin in 0...16 where size >= modules + 2 * margin {
                let geometry = try QRGeometry(size: size, modules: modules, margin: margin)
                #expect(geometry.modulePixels == size / (modules + 2 * margin))
                let left = geometry.offset
                let right = size - geometry.offset - modules * geometry.modulePixels
                #expect(left >= margin * geometry.modulePixels)
                #expect(right - left == 0 || right - left == 1, "size \(size) margin \(margin)")
            }
        }
    }

    static let tooSmall: [(size: Int, modules: Int, margin: Int, minSize: Int)] = [
        (64, 57, 4, 65),
        (100, 177, 0, 177),
        (2048, 177, 16, 0),  // fits: no error
        (200, 177, 16, 209),
    ]

    @Test(arguments: tooSmall)
    func tooSmallGivesTheMinimumSize(_ size: Int, _ modules: Int, _ margin: Int, _ minSize: Int) throws {
        guard minSize > 0 else {
            _ = try QRGeometry(size: size, modules: modules, margin: margin)
            return
        }
        let error = #expect(throws: LinkError.self) { try QRGeometry(size: size, modules: modules, margin: margin) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.details["minSize"] == .int(minSize))
        #expect(error?.details["field"] == "size")
        let smallest = try QRGeometry(size: minSize, modules: modules, margin: margin)
        #expect(smallest.modulePixels == 1)
    }
}
