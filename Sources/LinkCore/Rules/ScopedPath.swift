/// A `val` / `exists` path: how many scope levels to climb first, then the segments to walk.
///
/// `{"val": ["a", "b"]}` reads `a.b` in the current data; `{"val": [[2], "x"]}` climbs two levels first. Inside an
/// iteration the levels alternate: 1 is the iteration's metadata (`{"index": i}`), 2 the data around the iterator,
/// 3 the metadata of an enclosing iteration, 4 the data around that one, and so on. The sign of the level is
/// ignored (`[-2]` is `[2]`).
struct ScopedPath: Sendable, Hashable {
    let climb: Int
    let path: DataPath

    /// Reads the components of a `val` expression: an optional leading `[level]`, then keys (strings, numbers or
    /// booleans, taken as their text; `null` is skipped). Nil when a component is anything else.
    init?(components: [JSONValue]) {
        var rest = components[...]
        var climb = 0
        if case .array(let levels)? = rest.first {
            guard levels.count == 1, let level = levels[0].intValue, level != Int.min else { return nil }
            climb = abs(level)
            rest = rest.dropFirst()
        }
        var segments: [PathSegment] = []
        segments.reserveCapacity(rest.count)
        for component in rest {
            switch component {
            case .null: continue
            case .string(let key): segments.append(PathSegment(key))
            case .int, .double, .bool: segments.append(PathSegment(StringCoercion.string(from: component)))
            case .array, .object: return nil
            }
        }
        self.climb = climb
        self.path = DataPath(segments: segments)
    }
}
