import OrderedCollections

/// A failure with a stable, machine-readable code (API.md §1), a human message and structured details.
///
/// LinkCore throws these and knows nothing of HTTP; the server maps each ``Code`` to a status in one place.
public struct LinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable error code of the contract (API.md §1), as it appears on the wire.
    ///
    /// A struct rather than an enum, as swift-service-lifecycle's error codes are: a new code is a new static
    /// constant, not a new case, so code that switches over codes (with a `default`) keeps compiling when the
    /// contract gains one.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        private init(_ rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        public static let invalidJSON = Code("invalid_json")
        public static let invalidRequest = Code("invalid_request")
        public static let invalidURL = Code("invalid_url")
        public static let invalidPattern = Code("invalid_pattern")
        public static let invalidRule = Code("invalid_rule")
        public static let missingParams = Code("missing_params")
        public static let unexpectedParams = Code("unexpected_params")
        public static let unauthorized = Code("unauthorized")
        public static let intercepted = Code("intercepted")
        public static let notFound = Code("not_found")
        public static let noMatch = Code("no_match")
        public static let unknownName = Code("unknown_name")
        public static let subscriptionNotFound = Code("subscription_not_found")
        public static let methodNotAllowed = Code("method_not_allowed")
        public static let routeConflict = Code("route_conflict")
        public static let nameConflict = Code("name_conflict")
        public static let resourceExists = Code("resource_exists")
        public static let readOnly = Code("read_only")
        public static let revisionMismatch = Code("revision_mismatch")
        public static let payloadTooLarge = Code("payload_too_large")
        public static let uriTooLong = Code("uri_too_long")
        public static let unsupportedMediaType = Code("unsupported_media_type")
        public static let ruleError = Code("rule_error")
        public static let tooManySubscriptions = Code("too_many_subscriptions")
        public static let `internal` = Code("internal")
        public static let notImplemented = Code("not_implemented")
        public static let redirectLoop = Code("redirect_loop")
        public static let redirectLimit = Code("redirect_limit")
        public static let associationTooLarge = Code("association_too_large")
        public static let rateLimited = Code("rate_limited")
        public static let unknownToken = Code("unknown_token")
        public static let notCurrent = Code("not_current")
        public static let unavailable = Code("unavailable")

        /// Every code this version of the contract defines.
        public static let known: [Code] = [
            .invalidJSON,
            .invalidRequest,
            .invalidURL,
            .invalidPattern,
            .invalidRule,
            .missingParams,
            .unexpectedParams,
            .unauthorized,
            .intercepted,
            .notFound,
            .noMatch,
            .unknownName,
            .subscriptionNotFound,
            .methodNotAllowed,
            .routeConflict,
            .nameConflict,
            .resourceExists,
            .readOnly,
            .revisionMismatch,
            .payloadTooLarge,
            .uriTooLong,
            .unsupportedMediaType,
            .ruleError,
            .tooManySubscriptions,
            .`internal`,
            .notImplemented,
            .redirectLoop,
            .redirectLimit,
            .associationTooLarge,
            .rateLimited,
            .unknownToken,
            .notCurrent,
            .unavailable,
        ]
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
