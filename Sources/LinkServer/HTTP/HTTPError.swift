import LinkCore

/// The one place where error codes become HTTP statuses and the error envelope of API.md §1.
enum HTTPError {
    /// The HTTP status of each error code.
    static func status(of code: LinkError.Code) -> Int {
        switch code {
        case .invalidJSON, .invalidRequest, .invalidURL, .invalidPattern, .invalidRule, .missingParams,
            .unexpectedParams:
            return 400
        case .unauthorized: return 401
        case .intercepted: return 403
        case .notFound, .noMatch, .unknownName, .subscriptionNotFound, .unknownToken, .notCurrent: return 404
        case .methodNotAllowed: return 405
        case .routeConflict, .nameConflict, .resourceExists, .readOnly: return 409
        case .revisionMismatch: return 412
        case .payloadTooLarge: return 413
        case .uriTooLong: return 414
        case .unsupportedMediaType: return 415
        case .ruleError, .associationTooLarge: return 422
        case .tooManySubscriptions, .rateLimited: return 429
        case .internal: return 500
        case .notImplemented: return 501
        case .unavailable: return 503
        case .redirectLoop, .redirectLimit: return 508
        }
    }

    /// The error envelope `{"error": {"code", "message", "details"?}}` with the matching status.
    static func response(for error: LinkError, headers: [(String, String)] = []) -> Response {
        .json(
            writing: { writer in
                writer.beginObject()
                writer.key("error")
                writer.beginObject()
                writer.key("code")
                writer.string(error.code.rawValue)
                writer.key("message")
                writer.string(error.message)
                if !error.details.isEmpty {
                    writer.key("details")
                    writer.value(.object(error.details))
                }
                writer.endObject()
                writer.endObject()
            }, status: status(of: error.code), headers: headers)
    }

    /// A generic 500 whose message leaks nothing; the caller logs the real error.
    static let internalError = LinkError(.internal, "Internal server error")
}
