extension Location {
    /// The decoded, non-empty segments of a raw path (no scheme, host or query), as a location's path is decoded;
    /// `nil` for a malformed escape, invalid UTF-8 or a control character. For the server's own API paths, which
    /// need no full location parsing.
    public static func segments(ofPath path: String) -> [String]? {
        return path.withUTF8Bytes { bytes -> [String]? in
            var segments: [String] = []
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "/") { end += 1 }
                if end > start {
                    guard
                        let segment = try? PercentCoding.decode(
                            UnsafeBufferPointer(rebasing: bytes[start..<end]), allowControls: false)
                    else { return nil }
                    segments.append(segment)
                }
                start = end + 1
            }
            return segments
        }
    }
}
