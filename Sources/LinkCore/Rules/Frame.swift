import OrderedCollections

/// A scope an iterator step or a `try` fallback evaluates in, stacked above the rule's data.
struct Frame: Sendable {
    /// What `var` and `val` read.
    var data: FrameData
    /// The position of the element being visited, seen one level up as `{"index": i}`; nil for `try` fallbacks.
    var index: Int?

    /// The metadata object one level up from this frame's data, or `null`.
    var metadata: JSONValue {
        guard let index else { return .null }
        return .object(["index": .int(index)])
    }
}

/// The data of a ``Frame``.
enum FrameData: Sendable {
    /// A plain value: the element being visited, or the error object of a `try` fallback.
    case value(JSONValue)
    /// A `reduce` step: `{"current": …, "accumulator": …}`, kept apart so each step builds no object.
    case reduction(current: JSONValue, accumulator: JSONValue)

    /// The value at `path`; nil when nothing is there.
    func resolve(_ path: DataPath) -> JSONValue? {
        switch self {
        case .value(let value):
            return path.resolve(in: value)
        case .reduction(let current, let accumulator):
            guard let first = path.segments.first else { return materialized }
            let start: JSONValue
            switch first.key {
            case "current": start = current
            case "accumulator": start = accumulator
            default: return nil
            }
            return DataPath.walk(path.segments, from: 1, in: start)
        }
    }

    /// The data as one JSON value.
    var materialized: JSONValue {
        switch self {
        case .value(let value): return value
        case .reduction(let current, let accumulator):
            return .object(["current": current, "accumulator": accumulator])
        }
    }
}
