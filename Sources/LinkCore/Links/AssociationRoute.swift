/// A route as the association files see it: its full pattern, name, case-insensitivity and whether the apps
/// open it (`link.appLinks`, API.md §7).
public struct AssociationRoute: Sendable, Hashable {
    /// The full pattern (a nested route's parents included).
    public var pattern: Pattern
    /// The route's name, the components' comment; `nil` for an unnamed route (then the pattern is the comment).
    public var name: String?
    /// The effective case-insensitivity (Apple's `caseSensitive: false`; Android has no such flag).
    public var caseInsensitive: Bool
    /// `link.appLinks`: `false` makes the route's components `exclude` (web only).
    public var appLinks: Bool

    public init(pattern: Pattern, name: String? = nil, caseInsensitive: Bool = false, appLinks: Bool = true) {
        self.pattern = pattern
        self.name = name
        self.caseInsensitive = caseInsensitive
        self.appLinks = appLinks
    }
}
