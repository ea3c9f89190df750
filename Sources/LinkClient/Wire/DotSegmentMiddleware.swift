import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Writes a path segment that is exactly `.` or `..` as `%2E` / `%2E%2E`.
///
/// Route names, slot names and presentation ids may be `.` or `..` (API.md §3, §11), and the generated code leaves
/// `.` unescaped (it is unreserved), so `route(named: "..")` asked for `/v1/routes/..`, which URLSession resolves to
/// `/v1/` before it is sent. The service decodes the escaped form to the same name.
struct DotSegmentMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let path = request.path { request.path = DotSegmentMiddleware.escaped(path) }
        return try await next(request, body, baseURL)
    }

    /// `path` (with its query, left as it is) with each `.` or `..` segment escaped.
    static func escaped(_ path: String) -> String {
        let end = path.firstIndex(of: "?") ?? path.endIndex
        let segments = path[..<end].split(separator: "/", omittingEmptySubsequences: false)
        guard segments.contains(where: { $0 == "." || $0 == ".." }) else { return path }
        let written = segments.map { segment -> Substring in
            if segment == "." { return "%2E" }
            if segment == ".." { return "%2E%2E" }
            return segment
        }
        return written.joined(separator: "/") + path[end...]
    }
}
