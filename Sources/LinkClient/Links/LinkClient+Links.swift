import Foundation

extension LinkClient {
    /// The entry point for a link the app was opened with (`onOpenURL`, `application(_:continue:options:)`):
    /// records the app open (API.md §8: statistics, `validUntil`, `maxClicks`) and returns the resolution to show.
    /// Honour ``LinkOpen/decision``: only `open` carries a destination to show.
    public func open(_ url: URL, platform: AppPlatform = .current) async throws -> LinkOpen {
        // A platform the contract does not list is refused before it is sent (``JSONBridge/request(_:for:)``).
        let body: Components.Schemas.OpenRequest = try JSONBridge.request(
            JSONValue.object(["url": .string(url.absoluteString), "platform": .string(platform.rawValue)]),
            for: "recordAppOpen")
        return try await wire.call("recordAppOpen") { client in
            try JSONBridge.convert(try await client.recordAppOpen(body: .json(body)).ok.body.json)
        }
    }

    /// Claims a deferred-link token (API.md §9), sending ``installID``, or the id kept across launches
    /// (``InstallID/persistent(defaults:key:)``) when the client was made without one: a claim whose answer was
    /// lost is answered again on retry, where without an id the token would be spent. Throws ``LinkServiceError``
    /// with ``ErrorCode/unknownToken`` when it is unknown, expired or already claimed by another installation.
    public func claimDeferred(token: String) async throws -> DeferredLink {
        let body = Components.Schemas.ClaimRequest(token: token, installId: installID ?? InstallID.persistent())
        return try await wire.call("claimDeferredLink") { client in
            try JSONBridge.convert(try await client.claimDeferredLink(body: .json(body)).ok.body.json)
        }
    }

    /// Claims the deferred link in a pasteboard string or an install referrer, if it holds a token (see
    /// ``DeferredToken/find(in:hosts:)``); `nil` when it holds none, or when the token is unknown or used. A link
    /// on the pasteboard counts only on one of `hosts` (the service's `links.hosts`): pass them on iOS.
    public func claimDeferred(from text: String, hosts: [String] = []) async throws -> DeferredLink? {
        guard let token = DeferredToken.find(in: text, hosts: hosts) else { return nil }
        do {
            return try await claimDeferred(token: token)
        } catch let error as LinkServiceError where error.code == .unknownToken {
            return nil
        }
    }

    /// Click and app-open statistics (API.md §8): UTC days `from`…`to` (`YYYY-MM-DD`, inclusive; the service
    /// defaults to the last 30 days), for one route or all.
    public func clickStats(route: String? = nil, from: String? = nil, to: String? = nil) async throws -> ClickStats {
        try await wire.call("getClickStats") { client in
            try JSONBridge.convert(
                try await client.getClickStats(query: .init(route: route, from: from, to: to)).ok.body.json)
        }
    }
}
