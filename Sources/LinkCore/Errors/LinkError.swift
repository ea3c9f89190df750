import OrderedCollections

/// A failure with a stable, machine-readable code (API.md §1), a human message and structured details.
///
/// LinkCore throws these and knows nothing of HTTP; the server maps each ``Code`` to a status in one place.
public struct LinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable error codes of the contract.
    public enum Code: String, Sendable, CaseIterable {
        case invalidJSON = "invalid_json"
        case invalidRequest = "invalid_request"
        case invalidURL = "invalid_url"
        case invalidPattern = "invalid_pattern"
        case invalidRule = "invalid_rule"
        case missingParams = "missing_params"
        case unexpectedParams = "unexpected_params"
        case unauthorized
        case intercepted
        case notFound = "not_found"
        case noMatch = "no_match"
        case unknownName = "unknown_name"
        case subscriptionNotFound = "subscription_not_found"
        case methodNotAllowed = "method_not_allowed"
        case routeConflict = "route_conflict"
        case nameConflict = "name_conflict"
        case resourceExists = "resource_exists"
        case readOnly = "read_only"
        case revisionMismatch = "revision_mismatch"
        case payloadTooLarge = "payload_too_large"
        case uriTooLong = "uri_too_long"
        case unsupportedMediaType = "unsupported_media_type"
        case ruleError = "rule_error"
        case tooManySubscriptions = "too_many_subscriptions"
        case `internal`
        case notImplemented = "not_implemented"
        case redirectLoop = "redirect_loop"
        case redirectLimit = "redirect_limit"
        case associationTooLarge = "association_too_large"
        case rateLimited = "rate_limited"
        case unknownToken = "unknown_token"
        case notCurrent = "not_current"
        case unavailable
    }

    public var code: Code
    public var message: String
    public var details: JSONObject

    public init(_ code: Code, _ message: String, details: JSONObject = [:]) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension LinkError {
    /// `invalid_request` for a body field that is missing or has the wrong type.
    public static func invalidField(_ field: String, expected: String) -> LinkError {
        LinkError(.invalidRequest, "Field '\(field)' must be \(expected)", details: ["field": .string(field)])
    }
}
