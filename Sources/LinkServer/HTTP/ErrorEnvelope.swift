import LinkCore

/// The one place where error codes become HTTP statuses and the error envelope of API.md §1.
enum ErrorEnvelope {
    /// The HTTP status of each error code of the contract; `Code.known` and this table name the same codes (a test
    /// checks it).
    static let statuses: [LinkError.Code: Int] = [
        .invalidJSON: 400, .invalidRequest: 400, .invalidURL: 400, .invalidPattern: 400, .invalidRule: 400,
        .missingParams: 400, .unexpectedParams: 400,
        .unauthorized: 401,
        .intercepted: 403,
        .notFound: 404, .noMatch: 404, .unknownName: 404, .subscriptionNotFound: 404, .unknownToken: 404,
        .notCurrent: 404,
        .methodNotAllowed: 405,
        .routeConflict: 409, .nameConflict: 409, .resourceExists: 409, .readOnly: 409,
        .revisionMismatch: 412,
        .payloadTooLarge: 413,
        .uriTooLong: 414,
        .unsupportedMediaType: 415,
        .ruleError: 422, .associationTooLarge: 422,
        .tooManySubscriptions: 429, .rateLimited: 429,
        .internal: 500,
        .notImplemented: 501,
        .unavailable: 503,
        .redirectLoop: 508, .redirectLimit: 508,
    ]

    /// The HTTP status of an error code; a code missing from the table is a server fault, so 500.
    static func status(of code: LinkError.Code) -> Int { statuses[code] ?? 500 }

    /// The error envelope `{"error": {"code", "message", "details"}}` with the matching status: one shape for every
    /// error (API.md §1), `details` an empty object when the error has none. `alongside` are members written before
    /// `error` (`/readyz`'s `status`). A 503 `unavailable` says when to try again (`Retry-After: 1`, RFC 9110
    /// §10.2.3) unless `headers` do: while a shared store is known to be lost it is answered at once, and a client
    /// that retried at once would only spin.
    static func response(
        for error: LinkError, headers: [(String, String)] = [], alongside: JSONObject = [:]
    ) -> Response {
        var response = Response.json(
            writing: { writer in
                writer.beginObject()
                for (key, value) in alongside {
                    writer.key(string: key)
                    writer.value(value)
                }
                writer.key("error")
                writer.beginObject()
                writer.key("code")
                writer.string(error.code.rawValue)
                writer.key("message")
                writer.string(error.message)
                writer.key("details")
                writer.value(.object(error.details))
                writer.endObject()
                writer.endObject()
            }, status: status(of: error.code), headers: headers)
        if error.code == .unavailable, response.header("Retry-After") == nil {
            response.headers.append(("Retry-After", "1"))
        }
        return response
    }

    /// A generic 500 whose message leaks nothing; the caller logs the real error.
    static let internalError = LinkError(.internal, "Internal server error")

    /// The answer to an error no endpoint expected (the caller logs it): 503 `unavailable` when the embedded store
    /// cannot write for a reason of the machine (``SQLiteStore/machineFailure(_:)``: a full disk, a read-only or
    /// failing file system), which no change to the request helps and which may pass; else the generic 500.
    static func unexpected(_ error: any Error) -> LinkError {
        SQLiteStore.machineFailure(error) ?? internalError
    }
}
