/// A location in canonical form (API.md §2): decoded path segments and a parsed query.
///
/// Parsing (``init(_:)``) accepts a bare path or a full URL; the canonical text (``description``) re-encodes
/// each segment with the path-segment encoding, so it is ASCII, unambiguous (a segment's `/` is `%2F`) and reads
/// back to the same segments.
public struct Location: Sendable, Hashable, CustomStringConvertible {
    /// The fields, in one object: a location is handed from parser to resolver to answer and kept in resolutions and
    /// click facts, and as a struct of six words every copy was a whole-value (outlined) copy, a retain and a release
    /// per reference; now it is one reference.
    private final class Storage: Sendable {
        let segments: [String]
        let query: Query
        let scheme: String?
        let host: String?

        init(segments: [String], query: Query, scheme: String?, host: String?) {
            self.segments = segments
            self.query = query
            self.scheme = scheme
            self.host = host
        }
    }

    private let storage: Storage

    /// The decoded path segments; empty for `/`. Never holds an empty segment.
    public var segments: [String] { storage.segments }
    /// The parsed query.
    public var query: Query { storage.query }
    /// The lower-cased scheme of a full URL; `nil` for a bare path.
    public var scheme: String? { storage.scheme }
    /// The lower-cased host of an `http`/`https` URL, without user info or port; `nil` otherwise (a custom
    /// scheme's host is the first segment).
    public var host: String? { storage.host }

    public static func == (a: Location, b: Location) -> Bool {
        a.storage === b.storage
            || (a.segments == b.segments && a.query == b.query && a.scheme == b.scheme && a.host == b.host)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(segments)
        hasher.combine(query)
        hasher.combine(scheme)
        hasher.combine(host)
    }

    /// A location from decoded segments (empty segments are dropped) and a query.
    public init(segments: [String], query: Query = Query()) {
        self.init(segments: segments.filter { !$0.isEmpty }, query: query, scheme: nil, host: nil)
    }

    init(segments: [String], query: Query, scheme: String?, host: String?) {
        storage = Storage(segments: segments, query: query, scheme: scheme, host: host)
    }

    /// Whether `other` has the same canonical text but for how its empty query values were written (`?x` and `?x=`
    /// are one place, API.md §2): what decides a redirect's no-op and a loop.
    func isSamePlace(as other: Location) -> Bool {
        storage === other.storage || (segments == other.segments && query == other.query)
    }

    /// The canonical path: `/` + encoded segments joined with `/` (`/users/42`, `/a%2Fb`, `/`).
    public var path: String { String(decoding: Location.encodedPath(segments[...]), as: UTF8.self) }

    /// The canonical location: path, then `?` and the encoded query when there is one (`/users/42?tab=posts`).
    public var description: String { String(decoding: encodedText().bytes, as: UTF8.self) }

    /// ``description``'s bytes and where its path ends: an answer that writes the location, its path and the paths
    /// of its parents' parts encodes them once and writes slices (``pathPrefixEnd(in:segments:)``).
    func encodedText() -> (bytes: [UInt8], pathEnd: Int) {
        var output = Location.encodedPath(segments[...])
        let pathEnd = output.count
        if !query.isEmpty {
            output.append(UInt8(ascii: "?"))
            query.encode(into: &output)
            // A query of items with no key and no value writes nothing: no `?` either.
            if output.count == pathEnd + 1 { output.removeLast() }
        }
        return (output, pathEnd)
    }

    /// Where the canonical path of the first `count` segments ends in the canonical `path` of a location with at
    /// least that many: the same text as ``path(prefix:)`` (a segment's own `/` is encoded, so each `/` of a
    /// canonical path starts a segment, and the path of no segments is the leading `/`).
    static func pathPrefixEnd(in path: ArraySlice<UInt8>, segments count: Int) -> Int {
        guard count > 0 else { return path.startIndex + 1 }
        var seen = 0
        for index in path.indices where path[index] == UInt8(ascii: "/") {
            if seen == count { return index }
            seen += 1
        }
        return path.endIndex
    }

    /// The canonical path of the first `count` segments (a parent route's part of the location).
    public func path(prefix count: Int) -> String {
        String(decoding: Location.encodedPath(segments.prefix(count)), as: UTF8.self)
    }

    /// The same location with another query.
    public func with(query: Query) -> Location {
        Location(segments: segments, query: query, scheme: scheme, host: host)
    }

    /// `/` and each segment encoded for a path (``ByteSet/pathSegment``), joined with `/`; `/` for no segments.
    static func encodedPath(_ segments: ArraySlice<String>) -> [UInt8] {
        guard !segments.isEmpty else { return [UInt8(ascii: "/")] }
        // Written through a pointer into scratch room for the worst case (every byte escaped), then copied once:
        // `Array(unsafeUninitializedCapacity:)` would look up the array storage's generic type (see
        // ``JSONWriter/finish(appending:)``).
        let room = segments.reduce(0) { $0 + 1 + $1.utf8.count * 3 }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { scratch in
            var position = 0
            for segment in segments {
                scratch[position] = UInt8(ascii: "/")
                position += 1
                position += PercentCoding.encode(
                    segment, allowing: .pathSegment, writingAt: scratch.baseAddress! + position)
            }
            var path: [UInt8] = []
            path.reserveCapacity(position + 16)
            path.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<position]))
            return path
        }
    }
}
