/// A precondition on a resource's revision for a change (`ifRevision`, `If-Match`).
///
/// Conditions are checked only once the resource is found: a missing resource is 404 whatever they say.
public enum RevisionCondition: Sendable, Hashable {
    /// Any revision: the resource must merely exist (`If-Match: *`).
    case exists
    /// One of these revisions (`ifRevision`, or the tags of an `If-Match` list).
    case oneOf([Int])
    /// Nothing satisfies it (a malformed `If-Match`, or one with only weak or foreign tags).
    case never

    /// `ifRevision`: exactly this revision.
    public static func revision(_ revision: Int) -> RevisionCondition { .oneOf([revision]) }

    /// Whether a resource at `revision` satisfies the condition.
    public func admits(_ revision: Int) -> Bool {
        switch self {
        case .exists: return true
        case .oneOf(let revisions): return revisions.contains(revision)
        case .never: return false
        }
    }
}
