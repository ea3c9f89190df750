/// What an app should do when a link leads to the route it is already showing (`sameRoute`, API.md §3).
public enum SameRoutePolicy: String, Sendable, Hashable, CaseIterable {
    /// Ignore the link.
    case none
    /// Update the screen in place with the new parameters.
    case update
    /// Show a new screen (the default).
    case new
}
