/// CSPopKit's rule for one slot (API.md §11): one presentation at a time; a strictly higher priority replaces
/// the one showing, an equal or lower one is turned away; the same id updates the one showing.
///
/// Pure functions of the slot's live presentation: the caller first ends an expired one (``expire(_:now:)``).
public enum SlotRule {
    /// What a request did to a slot.
    public enum Change: Sendable, Hashable {
        /// `presentation` shows now; `replaced` is the one it pushed out (`nil` when the slot was empty).
        case presented(Presentation, replaced: Presentation?)
        /// The presentation showing was updated by its own sender (same id); it keeps its `since`.
        case updated(Presentation)
        /// Turned away: `current` keeps showing.
        case rejected(current: Presentation)
        /// The presentation showing was dismissed; the slot is empty.
        case dismissed(Presentation)
        /// A dismiss of something that is not showing: nothing changed.
        case notCurrent
        /// The presentation showing reached its end; the slot is empty.
        case expired(Presentation)

        /// What shows after the change.
        public func current(before: Presentation?) -> Presentation? {
            switch self {
            case .presented(let presentation, _), .updated(let presentation): presentation
            case .rejected(let current): current
            case .dismissed, .expired: nil
            case .notCurrent: before
            }
        }

        /// The `reason` of the `slotChanged` event, or `nil` when nothing changed.
        public var reason: String? {
            switch self {
            case .presented(_, let replaced): replaced == nil ? "presented" : "replaced"
            case .updated: "presented"
            case .dismissed: "dismissed"
            case .expired: "expired"
            case .rejected, .notCurrent: nil
            }
        }

        /// The presentation that left the slot (replaced, dismissed or expired), if any.
        public var ended: Presentation? {
            switch self {
            case .presented(_, let replaced): replaced
            case .dismissed(let presentation), .expired(let presentation): presentation
            case .updated, .rejected, .notCurrent: nil
            }
        }
    }

    /// Offers `new` to a slot showing `current` (already checked for expiry).
    public static func present(_ new: Presentation, over current: Presentation?) -> Change {
        guard let current else { return .presented(new, replaced: nil) }
        if current.id == new.id {
            var updated = new
            updated.since = current.since
            return .updated(updated)
        }
        return new.priority > current.priority ? .presented(new, replaced: current) : .rejected(current: current)
    }

    /// Dismisses `id` from a slot showing `current` (already checked for expiry).
    public static func dismiss(_ id: String, from current: Presentation?) -> Change {
        guard let current, current.id == id else { return .notCurrent }
        return .dismissed(current)
    }

    /// Ends `current` when it is over at `now`.
    public static func expire(_ current: Presentation?, now: Int64) -> Change? {
        guard let current, current.isExpired(at: now) else { return nil }
        return .expired(current)
    }
}
