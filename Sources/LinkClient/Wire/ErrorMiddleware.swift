import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns every non-2xx answer into a ``LinkServiceError`` before the generated code sees it, so each operation's
/// many error cases collapse into one typed error carrying the contract's `code`, `message` and `details`.
struct ErrorMiddleware: ClientMiddleware {
    /// The most of an error body read; the contract's error bodies are far smaller.
    static let bodyLimit = 1 << 20

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.kind != .successful else { return (response, responseBody) }
        // At most the limit is read: a longer body (a proxy's page) is cut, and its status still reported.
        var data = Data()
        if let responseBody {
            for try await chunk in responseBody {
                data.append(contentsOf: chunk.prefix(ErrorMiddleware.bodyLimit - data.count))
                if data.count >= ErrorMiddleware.bodyLimit { break }
            }
        }
        throw ErrorMiddleware.serviceError(status: response.status.code, headers: response.headerFields, body: data)
    }

    static func serviceError(status: Int, headers: HTTPFields, body: Data) -> LinkServiceError {
        let retryAfter = retrySeconds(headers[.retryAfter])
        if let envelope = try? JSONDecoder().decode(Envelope.self, from: body) {
            return LinkServiceError(
                status: status, code: ErrorCode(rawValue: envelope.error.code), message: envelope.error.message ?? "",
                details: envelope.error.details ?? .null, retryAfter: retryAfter)
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return LinkServiceError(status: status, code: .unknown, message: text, retryAfter: retryAfter)
    }

    /// The seconds a `Retry-After` asks for (RFC 9110 §10.2.3): a number of seconds, or an HTTP date (a proxy's or
    /// a CDN's 503 sends one), counted from `now`; `nil` when there is none or it reads as neither.
    static func retrySeconds(_ value: String?, now: Date = Date()) -> Int? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let seconds = Int(text) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }

    /// `{"error": {"code", "message", "details"}}` (API.md §1), decoded leniently: any code string is accepted, and
    /// an envelope without a message (a proxy's, another version's) still gives its code.
    private struct Envelope: Decodable {
        struct Body: Decodable {
            let code: String
            let message: String?
            let details: JSONValue?
        }
        let error: Body
    }
}
