/// The contract's machine-readable error `code` (API.md §1).
///
/// Open on purpose: a code the service adds later arrives as an unknown value (compare ``rawValue``), never as a
/// decoding failure. The known codes are static members, so `error.code == .noMatch` reads naturally.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    public static let invalidJSON: ErrorCode = "invalid_json"
    public static let invalidRequest: ErrorCode = "invalid_request"
    public static let invalidURL: ErrorCode = "invalid_url"
    public static let invalidPattern: ErrorCode = "invalid_pattern"
    public static let invalidRule: ErrorCode = "invalid_rule"
    public static let missingParams: ErrorCode = "missing_params"
    public static let unexpectedParams: ErrorCode = "unexpected_params"
    public static let unauthorized: ErrorCode = "unauthorized"
    public static let intercepted: ErrorCode = "intercepted"
    public static let notFound: ErrorCode = "not_found"
    public static let noMatch: ErrorCode = "no_match"
    public static let unknownName: ErrorCode = "unknown_name"
    public static let subscriptionNotFound: ErrorCode = "subscription_not_found"
    public static let methodNotAllowed: ErrorCode = "method_not_allowed"
    public static let routeConflict: ErrorCode = "route_conflict"
    public static let nameConflict: ErrorCode = "name_conflict"
    public static let resourceExists: ErrorCode = "resource_exists"
    public static let readOnly: ErrorCode = "read_only"
    public static let revisionMismatch: ErrorCode = "revision_mismatch"
    public static let payloadTooLarge: ErrorCode = "payload_too_large"
    public static let uriTooLong: ErrorCode = "uri_too_long"
    public static let unsupportedMediaType: ErrorCode = "unsupported_media_type"
    public static let associationTooLarge: ErrorCode = "association_too_large"
    public static let ruleError: ErrorCode = "rule_error"
    public static let tooManySubscriptions: ErrorCode = "too_many_subscriptions"
    public static let rateLimited: ErrorCode = "rate_limited"
    public static let unknownToken: ErrorCode = "unknown_token"
    public static let notCurrent: ErrorCode = "not_current"
    public static let unavailable: ErrorCode = "unavailable"
    public static let `internal`: ErrorCode = "internal"
    public static let redirectLoop: ErrorCode = "redirect_loop"
    public static let redirectLimit: ErrorCode = "redirect_limit"
}
