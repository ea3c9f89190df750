/// How a write addresses an existing resource: by pattern (parameter names ignored) or by name.
public enum ResourceTarget: Sendable, Hashable {
    /// `/u/:x` addresses the resource registered as `/u/:id`.
    case pattern(Pattern)
    case name(String)

    /// Parses a pattern text (`invalid_pattern`) or checks a name (`invalid_request` unless `[A-Za-z0-9_.-]+`).
    public static func parse(path: String?, name: String?) throws(LinkError) -> ResourceTarget {
        switch (path, name) {
        case (let path?, nil):
            return .pattern(try Pattern(path))
        case (nil, let name?):
            try Resource.checkName(name, field: "name")
            return .name(name)
        default:
            throw LinkError(
                .invalidRequest, "Give exactly one of 'path' and 'name'",
                details: ["field": .string(path == nil ? "path" : "name")])
        }
    }
}
