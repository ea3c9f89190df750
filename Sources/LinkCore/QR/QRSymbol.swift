/// A QR symbol as a square matrix of modules, without its quiet zone: what an encoder produced, ready to draw.
public struct QRSymbol: Sendable, Hashable {
    /// Modules per side (21 for version 1, 177 for version 40).
    public let width: Int
    /// The symbol version, 1–40.
    public let version: Int
    /// Row-major, `true` for a dark module.
    public let modules: [Bool]

    /// A symbol from `width` × `width` modules in row-major order.
    public init(version: Int, width: Int, modules: [Bool]) {
        precondition(width > 0 && modules.count == width * width, "a QR symbol is a non-empty square")
        self.version = version
        self.width = width
        self.modules = modules
    }

    /// Whether the module in column `x`, row `y` is dark.
    public subscript(x: Int, y: Int) -> Bool {
        modules[y * width + x]
    }

    /// The dark runs of row `y`: (first column, length) for each horizontal stretch of dark modules, left to right.
    public func darkRuns(row y: Int) -> [(start: Int, length: Int)] {
        var runs: [(start: Int, length: Int)] = []
        var x = 0
        while x < width {
            guard self[x, y] else {
                x += 1
                continue
            }
            let start = x
            while x < width && self[x, y] { x += 1 }
            runs.append((start, x - start))
        }
        return runs
    }
}
