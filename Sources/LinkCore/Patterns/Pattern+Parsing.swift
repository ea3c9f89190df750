extension Pattern {
    /// Parses an absolute pattern such as `/users/:id/files/*path`.
    ///
    /// Empty segments are dropped (`//` and a trailing `/` mean nothing, as in locations). Literal segments are
    /// percent-decoded. Errors are `invalid_pattern` with details `pattern` (the text), `position` (the 0-based
    /// index of the offending segment among the non-empty segments) and `reason`.
    public init(_ text: String) throws(LinkError) {
        guard text.utf8.first == UInt8(ascii: "/") else {
            throw Pattern.invalid(text, position: 0, reason: "a pattern must start with '/'")
        }
        self.init(validated: try Pattern.parseSegments(text, of: text, startingAt: 0, after: []))
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
        var first = true
        for byte in name.utf8 {
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
