/// A kind of event: a pattern and an optional unique name (API.md §5). Kept across restarts.
public struct EventType: Sendable, Hashable {
    public let pattern: Pattern
    public var name: String?

    public init(pattern: Pattern, name: String? = nil) {
        self.pattern = pattern
        self.name = name
    }

    /// How an emit's `matched` list names this type: its name, or its pattern when unnamed.
    public var label: String { name ?? pattern.description }

    /// `{"pattern", "name"}` (name `null` when unnamed).
    public func json() -> JSONValue {
        ["pattern": .string(pattern.description), "name": name.map(JSONValue.string) ?? .null]
    }
}

/// One entry of a subscription request: `{path}`, `{name}` or both.
public struct EventTypeRequest: Sendable, Hashable {
    public var path: String?
    public var name: String?

    public init(path: String? = nil, name: String? = nil) {
        self.path = path
        self.name = name
    }
}
