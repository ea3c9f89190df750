/// What one write did, for the answer and for the durable store.
public enum ResourceChange: Sendable, Hashable {
    /// A new resource (answer 201).
    case created(Resource)
    /// An existing resource got a new value, rule, name or pattern text (answer 200).
    case updated(Resource)
    /// `onExists: "keep"` found nothing to change: no write, no new revision (answer 200).
    case unchanged(Resource)
    /// The resource was removed (answer 204).
    case deleted(Resource)

    /// The resource as it now is (as it was, for a deletion).
    public var resource: Resource {
        switch self {
        case .created(let resource), .updated(let resource), .unchanged(let resource), .deleted(let resource):
            return resource
        }
    }

    /// Whether the change must be stored (everything but ``unchanged(_:)``); each such change has bumped the
    /// global revision by one.
    public var isWrite: Bool {
        if case .unchanged = self { return false }
        return true
    }
}
