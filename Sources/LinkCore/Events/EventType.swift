/// A kind of event: a pattern and an optional unique name (API.md §5). Kept across restarts.
public struct EventType: Sendable, Hashable {
    public let pattern: Pattern
    public var name: String?
    /// Built-in types (`linkClick`, `slotChanged`) exist from the start, are not stored and cannot be removed.
    public let isBuiltIn: Bool

    public init(pattern: Pattern, name: String? = nil, isBuiltIn: Bool = false) {
        self.pattern = pattern
        self.name = name
        self.isBuiltIn = isBuiltIn
    }

    /// `linkClick` (API.md §7): every counted click and app open, at `/links/clicks/{route}`.
    public static let linkClick = EventType(
        pattern: try! Pattern("/links/clicks/:route"), name: "linkClick", isBuiltIn: true)
    /// `slotChanged` (API.md §11): every change of a presentation slot, at `/slots/{slot}`.
    public static let slotChanged = EventType(
        pattern: try! Pattern("/slots/:slot"), name: "slotChanged", isBuiltIn: true)
    /// The types every bus starts with.
    public static let builtIn: [EventType] = [linkClick, slotChanged]

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
