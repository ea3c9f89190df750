/// A redirect rule of a route (API.md §3): an optional JSON Logic `when`, and an action — intercept, or
/// redirect to a target. Compiled and validated when the route is registered.
public struct RedirectRule: Sendable, Equatable {
    /// What a rule does when its `when` is truthy.
    public enum Action: Sendable {
        /// Block the resolution: `intercepted`.
        case intercept
        /// Resolve another location instead.
        case redirect(RedirectTarget)
    }

    /// The compiled condition; `nil` means always.
    public let when: Rule?
    public let action: Action
    /// The rule as given, returned in listings and persisted.
    public let json: JSONValue

    init(when: Rule?, action: Action, json: JSONValue) {
        self.when = when
        self.action = action
        self.json = json
    }

    /// Two rules are equal when they were written the same.
    public static func == (lhs: RedirectRule, rhs: RedirectRule) -> Bool { lhs.json == rhs.json }

    /// The rule with its templates checked against the pattern of the route that declares it: every
    /// `{name}` must be one of its parameters (a rule on a parent also runs for its children, whose extra
    /// parameters it cannot count on). `stored`: read back from the store (see ``RedirectTarget``).
    func validated(against pattern: Pattern, field: String, stored: Bool = false) throws(LinkError) -> RedirectRule {
        guard case .redirect(let target) = action else { return self }
        return RedirectRule(
            when: when,
            action: .redirect(try target.validated(against: pattern, field: field + ".to", stored: stored)), json: json)
    }
}
