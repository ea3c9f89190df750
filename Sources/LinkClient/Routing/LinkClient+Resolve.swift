import Foundation

extension LinkClient {
    /// Resolves a location or URL (API.md §3): `https://links.example.com/users/42`, `myapp://users/42` or
    /// `/users/42?tab=posts`.
    /// - Parameters:
    ///   - context: any JSON the route's redirect rules read as `context` (e.g. `["loggedIn": true]`).
    ///   - current: the location on screen now; when it is the same route, ``Resolution/sameRoute`` says what to do.
    ///   - redirectLimit: a lower redirect limit than the service's.
    public func resolve(
        url: String, context: JSONValue? = nil, current: String? = nil, redirectLimit: Int? = nil
    ) async throws -> Resolution {
        try await resolve(
            ResolveBody(
                url: url, name: nil, params: nil, query: nil, context: context, current: current,
                redirectLimit: redirectLimit))
    }

    /// Resolves a route by name: the location is built from `params` and `query` (percent-encoded), then
    /// resolved with redirect rules like a URL.
    public func resolve(
        name: String, params: [String: String] = [:], query: [String: String] = [:], context: JSONValue? = nil,
        current: String? = nil, redirectLimit: Int? = nil
    ) async throws -> Resolution {
        try await resolve(
            ResolveBody(
                url: nil, name: name, params: params, query: query, context: context, current: current,
                redirectLimit: redirectLimit))
    }

    /// Builds the location of a named route without resolving it: `user`, `["id": "42"]` → `/users/42`.
    public func locate(name: String, params: [String: String] = [:], query: [String: String] = [:]) async throws
        -> String
    {
        let body: Components.Schemas.LocateRequest = try JSONBridge.request(
            LocateBody(name: name, params: params, query: query), for: "locate")
        return try await wire.call("locate") { client in
            try await client.locate(body: .json(body)).ok.body.json.location
        }
    }

    /// Evaluates a JSONLogic rule over `data`, as a route's `when` would be (try a rule before putting it in a
    /// route). A failing evaluation throws ``LinkServiceError`` with code ``ErrorCode/ruleError``.
    public func evaluate(rule: JSONValue, data: JSONValue = .null) async throws -> JSONValue {
        let body: Components.Schemas.RuleEvaluateRequest = try JSONBridge.request(
            ["rule": rule, "data": data] as JSONValue, for: "evaluateRule")
        return try await wire.call("evaluateRule") { client in
            let result = try await client.evaluateRule(body: .json(body)).ok.body.json
            return try JSONBridge.convert(result, to: JSONValue.self)["result"] ?? .null
        }
    }

    private func resolve(_ request: ResolveBody) async throws -> Resolution {
        let body: Components.Schemas.ResolveRequest = try JSONBridge.request(request, for: "resolve")
        return try await wire.call("resolve") { client in
            try JSONBridge.convert(try await client.resolve(body: .json(body)).ok.body.json)
        }
    }
}

/// `POST /v1/resolve`'s body; `nil` fields are left out.
private struct ResolveBody: Encodable {
    let url: String?
    let name: String?
    let params: [String: String]?
    let query: [String: String]?
    let context: JSONValue?
    let current: String?
    let redirectLimit: Int?
}

private struct LocateBody: Encodable {
    let name: String
    let params: [String: String]
    let query: [String: String]
}
