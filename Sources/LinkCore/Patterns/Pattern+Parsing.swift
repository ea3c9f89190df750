extension Pattern {
    /// Parses an absolute pattern such as `/users/:id/files/*path`.
    ///
    /// Empty segments are dropped (`//` and a trailing `/` mean nothing, as in locations). Literal segments are
    /// percent-decoded. Errors are `invalid_pattern` with details `pattern` (the text), `position` (the 0-based
    /// index of the offending segment among the non-empty segments) and `reason`.
    public init(_ text: String) throws(LinkError) {
        if let plain = Pattern.plain(text) {
            self = plain
            return
        }
        try self.init(parsingAnyPattern: text)
    }

    /// ``init(_:)`` without the fast path for plain patterns: every pattern, every error (tests compare the two).
    init(parsingAnyPattern text: String) throws(LinkError) {
        guard text.utf8.first == UInt8(ascii: "/") else {
            throw Pattern.invalid(text, position: 0, reason: "a pattern must start with '/'")
        }
        self.init(validated: try Pattern.parseSegments(text, of: text, startingAt: 0, after: []))
    }

    /// The most common pattern, parsed in one pass over its bytes: `/`, then segments of unreserved ASCII
    /// (`A-Z a-z 0-9 - . _ ~`), `:name` or a last `*name`, with distinct names and no empty segment or trailing
    /// `/`. Its text is then its canonical text, so the pattern keeps `text` itself as its ``description``.
    /// Anything else — escapes, other characters, errors — is `nil`, for the general parser (which words the
    /// errors).
    static func plain(_ text: String) -> Pattern? {
        var segments: [PatternSegment] = []
        var names: [String] = []
        var positions: [Int] = []
        var catchAllLast = false
        let parsed = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            if bytes.count == 1 { return true }
            guard bytes.last != UInt8(ascii: "/") else { return false }
            segments.reserveCapacity(bytes.count { $0 == UInt8(ascii: "/") })
            let unreserved = ByteSet.unreserved
            var start = 1
            while start < bytes.count {
                guard !catchAllLast, segments.count < maximumSegments else { return false }
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
                guard end > start else { return false }
                let marker = bytes[start]
                if marker == UInt8(ascii: ":") || marker == UInt8(ascii: "*") {
                    let nameBytes = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])
                    guard isParameterName(nameBytes) else { return false }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    guard !names.contains(name) else { return false }
                    names.append(name)
                    positions.append(segments.count)
                    if marker == UInt8(ascii: "*") {
                        catchAllLast = true
                        segments.append(.catchAll(name))
                    } else {
                        segments.append(.parameter(name))
                    }
                } else {
                    let literal = UnsafeBufferPointer(rebasing: bytes[start..<end])
                    guard literal.allSatisfy({ unreserved.contains($0) }) else { return false }
                    segments.append(.literal(String(decoding: literal, as: UTF8.self)))
                }
                start = end + 1
            }
            return true
        }
        guard parsed == true else { return nil }
        return Pattern(
            segments: segments,
            layout: names.isEmpty
                ? nil : ParameterLayout(names: names, positions: positions, catchAllLast: catchAllLast),
            description: text)
    }

    /// This pattern followed by a relative child pattern (`/users/:id` + `posts/:postId`).
    ///
    /// Parameters accumulate; the child may not redeclare a name of this pattern; a pattern ending in a catch-all
    /// takes no children. Errors report the joined text and positions within it.
    public func appending(_ child: String) throws(LinkError) -> Pattern {
        let joined = description == "/" ? "/" + child : description + "/" + child
        if child.utf8.first == UInt8(ascii: "/") {
            throw Pattern.invalid(
                joined, position: segments.count,
                reason: "a child pattern is relative to its parent and must not start with '/'")
        }
        if endsWithCatchAll, child.utf8.contains(where: { $0 != UInt8(ascii: "/") }) {
            throw Pattern.invalid(
                joined, position: segments.count - 1, reason: "a catch-all must be the last segment")
        }
        let added = try Pattern.parseSegments(child, of: joined, startingAt: segments.count, after: segments)
        return Pattern(validated: segments + added)
    }

    static func invalid(_ pattern: String, position: Int, reason: String) -> LinkError {
        LinkError(
            .invalidPattern, "Invalid pattern '\(pattern)': \(reason)",
            details: ["pattern": .string(pattern), "position": .int(position), "reason": .string(reason)])
    }

    /// Parses the segments of `text`, numbering them from `start`, checking names against `previous`.
    private static func parseSegments(
        _ text: String, of fullText: String, startingAt start: Int, after previous: [PatternSegment]
    ) throws(LinkError) -> [PatternSegment] {
        var names = Set(previous.compactMap(\.parameterName))
        var sawCatchAll = false
        var result: [PatternSegment] = []
        for raw in text.utf8.split(separator: UInt8(ascii: "/")) {
            let position = start + result.count
            func fail(_ reason: String) -> LinkError { invalid(fullText, position: position, reason: reason) }
            if sawCatchAll {
                throw invalid(fullText, position: position - 1, reason: "a catch-all must be the last segment")
            }
            if position >= maximumSegments { throw fail("a pattern has at most \(maximumSegments) segments") }
            let segment = try parseSegment(Substring(raw), fail: fail)
            if let name = segment.parameterName {
                guard names.insert(name).inserted else { throw fail("duplicate parameter name '\(name)'") }
            }
            if case .catchAll = segment { sawCatchAll = true }
            result.append(segment)
        }
        return result
    }

    private static func parseSegment(_ raw: Substring, fail: (String) -> LinkError) throws(LinkError) -> PatternSegment
    {
        if let bad = raw.unicodeScalars.first(where: { $0 == "?" || $0 == "#" }) {
            throw fail("'\(bad)' is not allowed in a pattern")
        }
        if PercentCoding.containsControl(raw.utf8) { throw fail("control characters are not allowed in a pattern") }
        // The name follows the marker's scalar (`dropFirst()` would also drop a combining mark after the marker).
        let name = Substring(raw.unicodeScalars.dropFirst())
        switch raw.utf8.first {
        case UInt8(ascii: ":"):
            return .parameter(try parameterName(name, kind: "parameter", fail: fail))
        case UInt8(ascii: "*"):
            return .catchAll(try parameterName(name, kind: "catch-all", fail: fail))
        default:
            do {
                return .literal(try PercentCoding.decode(String(raw), allowControls: false))
            } catch .malformedEscape {
                throw fail("malformed percent-escape in '\(raw)'")
            } catch .invalidUTF8 {
                throw fail("percent-escapes in '\(raw)' do not decode to UTF-8")
            } catch {
                throw fail("control characters are not allowed in a pattern")
            }
        }
    }

    private static func parameterName(_ name: Substring, kind: String, fail: (String) -> LinkError) throws(LinkError)
        -> String
    {
        if name.isEmpty { throw fail("empty \(kind) name") }
        guard isParameterName(name) else {
            throw fail("\(kind) name '\(name)' must match [A-Za-z_][A-Za-z0-9_]*")
        }
        return String(name)
    }

    /// Whether `name` matches `[A-Za-z_][A-Za-z0-9_]*`.
    static func isParameterName(_ name: Substring) -> Bool {
        isParameterName(name.utf8)
    }

    /// Whether the bytes `name` match `[A-Za-z_][A-Za-z0-9_]*`.
    static func isParameterName(_ name: some Sequence<UInt8>) -> Bool {
        var first = true
        for byte in name {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "_"): break
            case UInt8(ascii: "0")...UInt8(ascii: "9") where !first: break
            default: return false
            }
            first = false
        }
        return !first
    }
}
