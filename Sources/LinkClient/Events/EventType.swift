/// An event type to subscribe to (API.md §5): a pattern, a name, or both.
///
/// `.name("onSeekSuccess")` subscribes to an existing named type; `.path("/seek/:progress")` to a pattern
/// (registering it when new, which needs the admin token when one is set); `.path(_:name:)` binds a name too.
public struct EventType: Sendable, Hashable {
    /// The pattern, e.g. `/seek/:progress`.
    public let path: String?
    /// The name, e.g. `onSeekProgress`.
    public let name: String?

    /// A type by pattern, optionally naming it.
    public static func path(_ path: String, name: String? = nil) -> EventType {
        EventType(path: path, name: name)
    }

    /// An existing type by name.
    public static func name(_ name: String) -> EventType {
        EventType(path: nil, name: name)
    }
}
