import Testing

@testable import LinkCore

/// The SVG drawing of a QR symbol (API.md §10).
@Suite struct QRSymbolSVGTests {
    /// A 3 × 3 symbol from rows of `#` (dark) and `.` (light).
    static func symbol(_ rows: [String]) -> QRSymbol {
        QRSymbol(version: 1, width: rows.count, modules: rows.flatMap { $0.map { $0 == "#" } })
    }

    static let runs: [(row: String, runs: [Int])] = [
        ("....", []),
        ("####", [0, 4]),
        ("#..#", [0, 1, 3, 1]),
        (".##.", [1, 2]),
        ("#.##", [0, 1, 2, 2]),
    ]

    @Test(arguments: runs)
    func darkRunsAreMaximal(_ row: String, _ expected: [Int]) {
        let symbol = QRSymbol(version: 1, width: 4, modules: (row + "...." + "...." + "....").map { $0 == "#" })
        #expect(symbol.darkRuns(row: 0).flatMap { [$0.start, $0.length] } == expected)
    }

    @Test func oneDocumentWithAViewBoxInModules() {
        let svg = Self.symbol(["##.", "..#", "#.#"]).svg(size: 64, margin: 2)
        #expect(
            svg == """
                <?xml version="1.0" encoding="UTF-8"?>
                <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="64" height="64" viewBox="-2 -2 7 7" \
                shape-rendering="crispEdges"><rect x="-2" y="-2" width="7" height="7" fill="#fff"/>\
                <path fill="#000" d="M0 0h2v1h-2zM2 1h1v1h-1zM0 2h1v1h-1zM2 2h1v1h-1z"/></svg>

                """)
    }

    @Test func marginZeroAndAnEmptySymbol() {
        let svg = Self.symbol(["..", ".."]).svg(size: 512, margin: 0)
        #expect(svg.contains(#"width="512" height="512" viewBox="0 0 2 2""#))
        #expect(svg.contains(##"<rect x="0" y="0" width="2" height="2" fill="#fff"/><path fill="#000" d=""/>"##))
    }

    @Test func everyDarkModuleIsCoveredOnce() {
        // A checkerboard: the worst case for runs.
        let width = 21
        let modules = (0..<(width * width)).map { ($0 / width + $0 % width) % 2 == 0 }
        let svg = QRSymbol(version: 1, width: width, modules: modules).svg(size: 512, margin: 4)
        #expect(svg.split(separator: "z", omittingEmptySubsequences: false).count - 1 == modules.filter { $0 }.count)
        #expect(!svg.contains("h2"))
        #expect(svg.split(separator: "<", omittingEmptySubsequences: false).count == 6)  // xml, svg, rect, path, /svg
    }
}
