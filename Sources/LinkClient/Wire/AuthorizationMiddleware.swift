import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `Authorization: Bearer <token>` on every request when a token is configured (API.md §6: the admin
/// token is accepted for reads too, so one token serves a backend job for everything).
///
/// Also puts `If-Match` back as written: the generated code percent-encodes header values like URI components,
/// which would turn the entity tag `"3"` into `%223%22`.
struct AuthorizationMiddleware: ClientMiddleware {
    let token: String?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token { request.headerFields[.authorization] = "Bearer \(token)" }
        if let ifMatch = request.headerFields[.ifMatch] {
            request.headerFields[.ifMatch] = ifMatch.removingPercentEncoding ?? ifMatch
        }
        return try await next(request, body, baseURL)
    }
}
