import Foundation

extension LinkClient {
    /// Offers a presentation to a slot (a write: the admin token): it shows when the slot is empty or `priority`
    /// is strictly higher than the current one's; the same `id` as the current one updates it.
    @discardableResult
    public func present(
        in slot: String, id: String, priority: Int, payload: JSONValue? = nil, ttl: Int? = nil
    ) async throws -> PresentOutcome {
        // Built as the generated type, whose `priority` is an `Int`, as the caller's. A payload JSON cannot hold
        // (`.number(.nan)`) is refused as every such request is: 400 `invalid_request`, not sent.
        let body = Components.Schemas.PresentRequest(
            id: id, priority: priority, payload: try payload.map { try JSONBridge.request($0, for: "presentInSlot") },
            ttl: ttl)
        return try await wire.call("presentInSlot") { client in
            // Decoded straight from the answer into a type whose `priority` is an `Int`.
            let answer = try JSONBridge.convert(
                try await client.presentInSlot(path: .init(slot: slot), body: .json(body)).ok.body.json,
                to: PresentAnswer.self)
            if answer.presented { return .presented(replaced: answer.replaced) }
            guard let current = answer.current else { throw JSONBridge.Missing(field: "current") }
            return .refused(current: current)
        }
    }

    /// What shows in a slot now, or `nil` when it is empty.
    public func presentation(in slot: String) async throws -> Presentation? {
        try await wire.call("getSlot") { client in
            try JSONBridge.convert(try await client.getSlot(path: .init(slot: slot)).ok.body.json, to: SlotAnswer.self)
                .current
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

/// A present's answer: `presented`, with what it replaced, or the presentation that stays.
private struct PresentAnswer: Decodable {
    let presented: Bool
    let replaced: PresentationSummary?
    let current: PresentationSummary?
}

/// A slot's state: what shows, or `null`.
private struct SlotAnswer: Decodable {
    let current: Presentation?
}
