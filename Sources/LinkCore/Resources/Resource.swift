/// A registered resource (API.md §4): a pattern, an optional unique name, and what it holds.
///
/// ``revision`` is the global revision of the resource's last write.
public struct Resource: Sendable, Hashable {
    /// The registered pattern; another pattern with the same ``Pattern/shape(caseInsensitive:)`` addresses it.
    public var pattern: Pattern
    /// The unique name, `[A-Za-z0-9_.-]+`; `nil` when unnamed.
    public var name: String?
    public var content: ResourceContent
    /// The global revision at this resource's last write (at least 1).
    public var revision: Int

    public init(pattern: Pattern, name: String?, content: ResourceContent, revision: Int) {
        self.pattern = pattern
        self.name = name
        self.content = content
        self.revision = revision
    }

    /// The identity of the resource among others: its pattern with parameter names ignored.
    public var shape: String { pattern.shape() }

    /// `{"path", "name", "revision"}`: how a read names the resource it came from (`name` is `null` when unnamed).
    public var summaryJSON: JSONValue {
        .object(["path": .string(pattern.description), "name": nameJSON, "revision": .int(revision)])
    }

    /// `{"path", "name", "revision", "value" | "compute"}`: a list item, and the answer to a write.
    public var json: JSONValue {
        var object: JSONObject = [
            "path": .string(pattern.description), "name": nameJSON, "revision": .int(revision),
        ]
        switch content {
        case .value(let value): object["value"] = value
        case .compute(let rule): object["compute"] = rule.expression
        }
        return .object(object)
    }

    var nameJSON: JSONValue { name.map(JSONValue.string) ?? .null }
}

extension Resource {
    /// Throws `invalid_request` (details `field`, `name`) unless `name` matches `[A-Za-z0-9_.-]+`, the name syntax
    /// shared by routes, resources and event types.
    public static func checkName(_ name: String, field: String = "name") throws(LinkError) {
        guard RouteDefinition.isValidName(name) else {
            throw LinkError(
                .invalidRequest, "Invalid resource name '\(name)': it must match [A-Za-z0-9_.-]+",
                details: ["field": .string(field), "name": .string(name)])
        }
    }
}
