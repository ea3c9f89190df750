/// A route, resource or event pattern (API.md §2): an absolute path of literal, `:parameter` and final `*catchAll`
/// segments, parsed and validated once.
///
/// Two patterns that differ only in parameter names have the same ``shape`` and are the same pattern for
/// conflicts and for addressing (`/u/:x` addresses `/u/:id`). ``description`` is the canonical text.
public struct Pattern: Sendable, Hashable, CustomStringConvertible {
    /// The most segments a pattern may have (deeper patterns are `invalid_pattern`).
    public static let maximumSegments = 255

    /// The segments, root first; empty for the root pattern `/`.
    public let segments: [PatternSegment]
    /// Where the parameters sit (precomputed for matching); `nil` without parameters.
    let layout: ParameterLayout?
    /// The canonical text, e.g. `/users/:id/files/*path`; `/` for the root.
    public let description: String

    /// Parameter and catch-all names in pattern order.
    public var parameterNames: [String] { layout?.names ?? [] }

    /// Builds a pattern from already validated segments.
    init(validated segments: [PatternSegment]) {
        self.segments = segments
        var names: [String] = []
        var positions: [Int] = []
        var catchAllLast = false
        for (index, segment) in segments.enumerated() {
            if let name = segment.parameterName {
                names.append(name)
                positions.append(index)
            }
            // A validated pattern has a catch-all only as its last segment.
            if case .catchAll = segment { catchAllLast = true }
        }
        layout = names.isEmpty ? nil : ParameterLayout(names: names, positions: positions, catchAllLast: catchAllLast)
        description = segments.isEmpty ? "/" : segments.reduce(into: "") { $0 += "/" + $1.text }
    }

    /// A pattern from its parts, which the caller has checked agree.
    init(segments: [PatternSegment], layout: ParameterLayout?, description: String) {
        self.segments = segments
        self.layout = layout
        self.description = description
    }

    /// This pattern with its parameter layout replaced by an equal one of `layouts` (added when it has none):
    /// patterns registered together then hold one layout object per distinct layout, not one each (a large route
    /// file has few distinct layouts).
    func sharingLayout(_ layouts: inout Set<ParameterLayout>) -> Pattern {
        guard let layout else { return self }
        let (inserted, shared) = layouts.insert(layout)
        return inserted ? self : Pattern(segments: segments, layout: shared, description: description)
    }

    /// Patterns are equal when their segments are (everything else is derived from them).
    public static func == (lhs: Pattern, rhs: Pattern) -> Bool {
        lhs.segments == rhs.segments
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(segments)
    }

    /// Whether the last segment is a catch-all (a catch-all is a parameter, so it is in the layout).
    public var endsWithCatchAll: Bool { layout?.catchAllLast ?? false }

    /// The key that identifies a pattern regardless of its parameter names: `/users/:/files/*`.
    ///
    /// With `caseInsensitive`, literals are lower-cased, as the matcher compares them.
    public func shape(caseInsensitive: Bool = false) -> String {
        if segments.isEmpty { return "/" }
        var key = ""
        for segment in segments {
            switch segment {
            case .parameter: key += "/:"
            case .catchAll: key += "/*"
            case .literal:
                key += "/" + (caseInsensitive ? segment.text.lowercased() : segment.text)
            }
        }
        return key
    }

    /// The pattern as a dictionary key under which two patterns that differ only in parameter names are equal, as
    /// their ``shape(caseInsensitive:)`` strings are (case-sensitively): it compares the segments in place instead
    /// of building that string, and keeps no storage of its own.
    struct ShapeKey: Hashable {
        /// The pattern's segments (a key is one reference and its hash).
        let segments: [PatternSegment]
        /// Computed once: a key is hashed for every lookup and again whenever its dictionary grows.
        private let hash: Int

        init(pattern: Pattern) {
            segments = pattern.segments
            var hasher = Hasher()
            hasher.combine(segments.count)
            for segment in segments {
                switch segment {
                case .literal(let text):
                    hasher.combine(0 as UInt8)
                    hasher.combine(text)
                case .parameter: hasher.combine(1 as UInt8)
                case .catchAll: hasher.combine(2 as UInt8)
                }
            }
            hash = hasher.finalize()
        }

        static func == (lhs: ShapeKey, rhs: ShapeKey) -> Bool {
            guard lhs.hash == rhs.hash, lhs.segments.count == rhs.segments.count else { return false }
            for (a, b) in zip(lhs.segments, rhs.segments) {
                switch (a, b) {
                case (.literal(let x), .literal(let y)) where x == y: continue
                case (.parameter, .parameter), (.catchAll, .catchAll): continue
                default: return false
                }
            }
            return true
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }
    }

    /// The parameter values a location's decoded `segments` give this pattern, in pattern order.
    ///
    /// `segments` should be a match of this pattern (a value past the end of `segments` is empty). A catch-all's
    /// value is its decoded segments joined with `/`.
    public func parameters(in segments: [String]) -> PathParameters {
        guard let layout else { return PathParameters() }
        return PathParameters(layout: layout, segments: segments)
    }
}
