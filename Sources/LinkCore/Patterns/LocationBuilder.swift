import OrderedCollections

/// Parameter values by name, in the order given, for building a location.
public typealias ParameterValues = OrderedDictionary<String, String>

/// Builds a location from a pattern, parameter values and query items (API.md §2, `POST /v1/locate`).
///
/// Values are decoded text; the resulting ``Location`` encodes each segment for a path and each query
/// component for a query when written out. A parameter value becomes one segment (`a/b` → `a%2Fb`); a catch-all
/// value is split on `/` into segments (empty pieces dropped), so `docs/intro` → `/docs/intro`.
public enum LocationBuilder {
    /// The location of `pattern` with `params`, and `query` appended in the given order.
    ///
    /// - Throws: `missing_params` with `missing` (every absent parameter, in pattern order; an empty value counts
    ///   as absent, since it would make an empty segment), then `unexpected_params` with `unexpected` (names the
    ///   pattern does not have, in the order given), then `invalid_url` for a value holding a control character.
    public static func location(
        for pattern: Pattern, params: ParameterValues, query: [QueryItem] = []
    ) throws(LinkError) -> Location {
        let names = pattern.parameterNames
        let missing = pattern.segments.compactMap { segment -> String? in
            switch segment {
            case .literal: return nil
            case .parameter(let name): return params[name].map { $0.isEmpty } ?? true ? name : nil
            case .catchAll(let name): return params[name].map(isEmptyCatchAll) ?? true ? name : nil
            }
        }
        if !missing.isEmpty {
            throw LinkError(
                .missingParams, "Missing parameters for \(pattern): \(missing.joined(separator: ", "))",
                details: ["missing": .array(missing.map(JSONValue.string)), "pattern": .string(pattern.description)])
        }
        let unexpected = params.keys.filter { !names.contains($0) }
        if !unexpected.isEmpty {
            throw LinkError(
                .unexpectedParams, "Unexpected parameters for \(pattern): \(unexpected.joined(separator: ", "))",
                details: [
                    "unexpected": .array(unexpected.map(JSONValue.string)), "pattern": .string(pattern.description),
                ])
        }
        var segments: [String] = []
        segments.reserveCapacity(pattern.segments.count)
        for segment in pattern.segments {
            switch segment {
            case .literal(let text): segments.append(text)
            case .parameter(let name):
                let value = params[name]!
                try checkControls(value, name: name)
                segments.append(value)
            case .catchAll(let name):
                let value = params[name]!
                try checkControls(value, name: name)
                segments.append(contentsOf: value.split(separator: "/").map(String.init))
            }
        }
        return Location(segments: segments, query: Query(query), scheme: nil, host: nil)
    }

    /// A catch-all value that gives no segment: empty or nothing but slashes.
    private static func isEmptyCatchAll(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == UInt8(ascii: "/") }
    }

    private static func checkControls(_ value: String, name: String) throws(LinkError) {
        if PercentCoding.containsControl(value.utf8) {
            throw LinkError(
                .invalidURL, "Parameter '\(name)' holds a control character",
                details: ["param": .string(name), "reason": .string("control characters are not allowed in a path")])
        }
    }
}
