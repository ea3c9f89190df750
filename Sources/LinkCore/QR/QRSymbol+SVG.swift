extension QRSymbol {
    /// The symbol as an SVG document (API.md §10): `width` and `height` are the image size in pixels, the
    /// `viewBox` is in modules with the quiet zone at negative coordinates, a white background fills it, and the
    /// dark modules are one path of horizontal runs drawn with `shape-rendering="crispEdges"`.
    public func svg(size: Int, margin: Int) -> String {
        let span = width + 2 * margin
        var path = ""
        path.reserveCapacity(width * width)
        for y in 0..<width {
            for run in darkRuns(row: y) {
                path += "M\(run.start) \(y)h\(run.length)v1h-\(run.length)z"
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(size)" height="\(size)" \
            viewBox="\(-margin) \(-margin) \(span) \(span)" shape-rendering="crispEdges">\
            <rect x="\(-margin)" y="\(-margin)" width="\(span)" height="\(span)" fill="#fff"/>\
            <path fill="#000" d="\(path)"/></svg>

            """
    }
}
