import Foundation
import LinkCore

@testable import LinkServer

extension TestServer {
    /// A new client of the public listener (API.md §7).
    func linksClient() -> HTTPClient { HTTPClient(port: application.linksPort) }
}

extension HTTPClient {
    /// A click: `GET target` on the public listener as `agent`, on `host` (one of ``LinkListenerTests``' hosts),
    /// with `headers` added.
    func click(
        _ target: String, agent: String, host: String = "links.example.com", headers: [String: String] = [:]
    ) throws -> Reply {
        try get(target, headers: headers.merging(["Host": host, "User-Agent": agent]) { given, _ in given })
    }

    /// `POST path` on the public listener (its `Host` is one of the links hosts).
    func postToLinks(_ path: String, _ json: JSONValue, headers: [String: String] = [:]) throws -> Reply {
        try post(path, json, headers: headers.merging(["Host": "links.example.com"]) { given, _ in given })
    }
}

extension HTTPClient.Reply {
    /// The decoded `referrer` of a Play Store redirect's `Location`, as a query (`?a=1&b=2`), or `nil`.
    var playReferrer: String? {
        header("location").flatMap { PlayReferrer.queryValue("referrer", in: $0) }.map { "?" + $0 }
    }

    /// The deferred-link token in a Play Store redirect's referrer, or `nil`.
    var playToken: String? { playReferrer.flatMap { PlayReferrer.queryValue("linkserver_token", in: $0) } }
}

extension HTTPClient {
    /// Subscribes (on the API listener) to the built-in `linkClick` events and returns the subscription's id.
    func subscribeToClicks() throws -> String {
        let reply = try post("/v1/events/subscriptions", ["events": [["name": "linkClick"]]])
        guard let id = reply.json?["id"]?.stringValue else {
            throw Failure(description: "no subscription: \(reply.status) \(reply.text)")
        }
        return id
    }

    /// The events queued for subscription `id`, in `seq` order, without waiting (every click emits before it is
    /// answered).
    func queuedEvents(_ id: String) throws -> [JSONValue] {
        try get("/v1/events/subscriptions/\(id)?after=0&wait=0").json?["events"]?.arrayValue ?? []
    }
}

/// Runs `body` against a server with ``LinkListenerTests``' links settings, a read token `r` and an admin token `a`,
/// and ``LinkListenerTests/userRoute`` registered.
func withReadTokenLinksServer(_ body: (TestServer) throws -> Void) throws {
    try withServer({
        LinkListenerTests.configure(&$0) {
            $0.readToken = "r"
            $0.adminToken = "a"
        }
    }) { (server) throws in
        let registered = try server.client().post(
            "/v1/routes", LinkListenerTests.userRoute, headers: ["Authorization": "Bearer a"])
        guard registered.status == 201 else {
            throw HTTPClient.Failure(description: "the user route was not registered: \(registered.text)")
        }
        try body(server)
    }
}
