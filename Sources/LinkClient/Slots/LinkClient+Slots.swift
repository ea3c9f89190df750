import Foundation

extension LinkClient {
    /// Offers a presentation to a slot (a write: the admin token): it shows when the slot is empty or `priority`
    /// is strictly higher than the current one's; the same `id` as the current one updates it.
    @discardableResult
    public func present(
        in slot: String, id: String, priority: Int, payload: JSONValue? = nil, ttl: Int? = nil
    ) async throws -> PresentOutcome {
        var fields: [String: JSONValue] = ["id": .string(id), "priority": .number(Double(priority))]
        if let payload { fields["payload"] = payload }
        if let ttl { fields["ttl"] = .number(Double(ttl)) }
        let body: Components.Schemas.PresentRequest = try JSONBridge.convert(JSONValue.object(fields))
        return try await wire.call("presentInSlot") { client in
            let answer = try JSONBridge.convert(
                try await client.presentInSlot(path: .init(slot: slot), body: .json(body)).ok.body.json,
                to: JSONValue.self)
            if answer["presented"] == .bool(true) {
                return .presented(replaced: try answer["replaced"]?.nonNull?.decode(PresentationSummary.self))
            }
            guard let current = answer["current"] else { throw JSONBridge.Missing(field: "current") }
            return .refused(current: try current.decode(PresentationSummary.self))
        }
    }

    /// What shows in a slot now, or `nil` when it is empty.
    public func presentation(in slot: String) async throws -> Presentation? {
        try await wire.call("getSlot") { client in
            let state = try JSONBridge.convert(
                try await client.getSlot(path: .init(slot: slot)).ok.body.json, to: JSONValue.self)
            guard let current = state["current"]?.nonNull else { return nil }
            return try current.decode(Presentation.self, decoder: JSONBridge.decoder)
        }
    }

    /// Dismisses what the app showed (the read token suffices); 404 `not_current` when `id` is no longer what
    /// shows in the slot.
    public func dismiss(in slot: String, id: String) async throws {
        _ = try await wire.call("dismissFromSlot") { client in
            try await client.dismissFromSlot(path: .init(slot: slot, id: id)).noContent
        }
    }
}
