import Foundation
import LinkClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// App opens (§8), deferred links (§9) and click statistics, on both listeners.
@Suite struct LinkTests {
    static let userRoute = RouteDefinition(
        path: "/users/:id", name: "user", destination: ["screen": "Profile"], presentation: "push")

    static func linksServer(_ body: (LiveServer, LinkClient) async throws -> Void) async throws {
        var settings = LiveServer.Settings()
        settings.links = true
        try await withLiveServer(settings) { server in
            let admin = server.client()
            try await admin.register(userRoute)
            try await body(server, admin)
        }
    }

    @Test func openRecordsTheOpenAndReturnsTheResolution() async throws {
        try await Self.linksServer { server, admin in
            // The app talks to the public listener, without a token.
            let app = LinkClient(baseURL: server.linksURL)
            let opened = try await app.open(URL(string: "https://127.0.0.1/users/42?ref=mail")!, platform: .ios)
            #expect(opened.decision == .open)
            #expect(opened.target == nil)
            let resolution = try #require(opened.resolution)
            #expect(resolution.params == ["id": "42"])
            #expect(resolution.destination == ["screen": "Profile"])
            #expect(resolution.presentation == "push")

            let missing = try await app.open(URL(string: "https://127.0.0.1/nothing")!, platform: .android)
            #expect(missing.decision == .notFound)
            #expect(missing.resolution == nil)

            let stats = try await admin.clickStats()
            #expect(stats.opens == 1)
            #expect(stats.unmatched == 1)
            #expect(stats.byPlatform["ios"] == 1)
            #expect(stats.byDay.count == 30)
            #expect(stats.routes.first?.name == "user")
            let today = try #require(stats.byDay.last?.day)
            let one = try await admin.clickStats(route: "user", from: today, to: today)
            #expect(one.from == today)
            #expect(one.opens == 1)
            #expect(one.byDay.count == 1)
            let unknown = try await #require(throws: LinkServiceError.self) {
                try await admin.clickStats(route: "nope")
            }
            #expect(unknown.code == .unknownName)
        }
    }

    @Test func aDeferredLinkIsClaimedFromTheInstallReferrer() async throws {
        try await Self.linksServer { server, _ in
            let referrer = try await Self.androidClickReferrer(server, path: "/users/7?tab=a")
            let clicked = "https://127.0.0.1:\(server.linksURL.port!)/users/7?tab=a"  // Host as received
            #expect(DeferredToken.link(inReferrer: referrer) == clicked)

            let app = LinkClient(baseURL: server.linksURL, installID: "install-1")
            let claimed = try #require(try await app.claimDeferred(from: referrer))
            #expect(claimed.platform == .android)
            #expect(claimed.link == clicked)
            #expect(claimed.resolution.params == ["id": "7"])
            #expect(claimed.resolution.destination == ["screen": "Profile"])
            #expect(abs(claimed.clickedAt.timeIntervalSinceNow) < 60)
            // The same installation again (a lost answer) gets the same link; another installation gets nothing.
            #expect(try await app.claimDeferred(from: referrer) == claimed)
            let other = LinkClient(baseURL: server.baseURL, installID: "install-2")
            #expect(try await other.claimDeferred(from: referrer) == nil)
            let token = try #require(DeferredToken.find(in: referrer))
            let error = try await #require(throws: LinkServiceError.self) {
                try await other.claimDeferred(token: token)
            }
            #expect(error.status == 404)
            #expect(error.code == .unknownToken)
            #expect(try await other.claimDeferred(from: "no token here") == nil)
        }
    }

    /// §14 "with a kept installId": a client made without one claims with the id kept across launches, so a
    /// retried claim (its answer lost) gets the link again instead of `unknown_token`.
    @Test func aClientWithoutAnInstallIDClaimsWithTheKeptOne() async throws {
        // The test process's own defaults; the id made here is not left behind (on disk either: swift-corelibs-
        // foundation writes defaults only when asked, and `InstallID` asks).
        defer {
            UserDefaults.standard.removeObject(forKey: "LinkClient.installID")
            UserDefaults.standard.synchronize()
        }
        try await Self.linksServer { server, _ in
            let referrer = try await Self.androidClickReferrer(server, path: "/users/8")
            let app = LinkClient(baseURL: server.linksURL)
            let claimed = try #require(try await app.claimDeferred(from: referrer))
            #expect(try await LinkClient(baseURL: server.linksURL).claimDeferred(from: referrer) == claimed)
            #expect(
                try await LinkClient(baseURL: server.linksURL, installID: "other").claimDeferred(from: referrer) == nil)
        }
    }

    /// Taps a link as an Android person without the app: the links listener sends them to Google Play with the
    /// token in the referrer. Returns the referrer value (what the Play Install Referrer library hands the app).
    static func androidClickReferrer(_ server: LiveServer, path: String) async throws -> String {
        var request = URLRequest(url: URL(string: server.linksURL.absoluteString + path)!)
        request.setValue(
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile",
            forHTTPHeaderField: "User-Agent")
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (_, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 302)
        let location = try #require(http.value(forHTTPHeaderField: "Location"))
        let store = try #require(URLComponents(string: location))
        #expect(store.host == "play.google.com")
        return try #require(store.queryItems?.first { $0.name == "referrer" }?.value)
    }
}

/// Keeps a redirect as the answer instead of following it (the store is not on this machine).
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
