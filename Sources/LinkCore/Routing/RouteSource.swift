/// Where a route came from: the config file (read-only through the API) or the API (persisted).
public enum RouteSource: String, Sendable, Hashable, CaseIterable {
    case config
    case api
}
