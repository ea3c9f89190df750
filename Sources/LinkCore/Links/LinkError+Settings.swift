extension LinkError {
    /// `invalid_request` for a setting whose value is malformed, naming both (details `field`, `value`, `reason`),
    /// e.g. `links.apps.ios.appIDs: invalid value 'ABC.app': the team ID must be 10 characters A–Z or 0–9`.
    public static func invalidSetting(_ field: String, value: String, reason: String) -> LinkError {
        LinkError(
            .invalidRequest, "\(field): invalid value '\(value)': \(reason)",
            details: ["field": .string(field), "value": .string(value), "reason": .string(reason)])
    }
}
