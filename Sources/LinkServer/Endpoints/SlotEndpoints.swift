import LinkCore

/// `/v1/slots…` (API.md §11): present by priority (admin), read, dismiss (read token).
struct SlotEndpoints: Sendable {
    static let ttlRange = 1...86_400
    static let defaultTTL = 3600

    let board: SlotBoard

    var endpoints: [Endpoint] {
        [
            Endpoint("POST", "/v1/slots/{slot}/present", .write) { request, parameters in
                try present(request, slot: try SlotEndpoints.name(parameters["slot"], "slot"))
            },
            Endpoint("GET", "/v1/slots/{slot}", .read) { _, parameters in
                let slot = try SlotEndpoints.name(parameters["slot"], "slot")
                return .now(.json(["current": board.current(slot)?.json() ?? .null]))
            },
            Endpoint("DELETE", "/v1/slots/{slot}/present/{id}", .read) { _, parameters in
                let slot = try SlotEndpoints.name(parameters["slot"], "slot")
                let id = try SlotEndpoints.name(parameters["id"], "id")
                guard case .dismissed = try board.dismiss(slot, id: id) else {
                    throw LinkError(
                        .notCurrent, "'\(id)' is not the presentation showing in slot '\(slot)'",
                        details: ["slot": .string(slot), "id": .string(id)])
                }
                return .now(.noContent)
            }.usingStore(),
        ]
    }

    private func present(_ request: Request, slot: String) throws -> Reply {
        let body = try JSONFields(request.jsonBody(), allowed: ["id", "priority", "payload", "ttl"])
        let id = try SlotEndpoints.name(try body.requiredString("id"), "id")
        guard let priority = try body.int("priority", in: Int.min...Int.max) else {
            throw LinkError(.invalidRequest, "Field 'priority' is required", details: ["field": "priority"])
        }
        let ttl = try body.int("ttl", in: SlotEndpoints.ttlRange) ?? SlotEndpoints.defaultTTL
        let change = try board.present(
            slot, id: id, priority: priority, payload: body["payload"] ?? .null, ttl: ttl)
        switch change {
        case .presented(_, let replaced):
            return .now(.json(["presented": true, "replaced": replaced?.summary() ?? .null]))
        case .updated:
            return .now(.json(["presented": true, "replaced": .null]))
        case .rejected(let current):
            return .now(.json(["presented": false, "current": current.summary()]))
        case .dismissed, .notCurrent, .expired:
            throw ErrorEnvelope.internalError
        }
    }

    /// A slot name or presentation id: `[A-Za-z0-9_.:-]{1,128}`, else `invalid_request`.
    private static func name(_ text: String?, _ field: String) throws(LinkError) -> String {
        guard let text, Presentation.isValidName(text) else {
            throw LinkError(
                .invalidRequest, "'\(field)' must match [A-Za-z0-9_.:-]{1,128}",
                details: ["field": .string(field), "value": .string(text ?? "")])
        }
        return text
    }
}
