import Foundation
import LinkClient
import Testing

/// API.md §14: "every failure is a typed error carrying the contract's `code`, `message` and `details`; `code` is
/// open (a code added to §1 later arrives as an unknown value, never as a decoding failure)".
@Suite struct ErrorCodeTests {
    @Test func aCodeAddedLaterArrivesAsItsOwnValue() async throws {
        let body = #"{"error":{"code":"brand_new_code","message":"Something new","details":{"limit":3}}}"#
        let server = CannedServer(
            response: "HTTP/1.1 418 I'm a teapot\r\nContent-Type: application/json\r\nRetry-After: 7\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let client = server.client()
        let error = try await #require(throws: LinkServiceError.self) {
            try await client.resolve(url: "/users/42")
        }
        #expect(error.status == 418)
        #expect(error.code == ErrorCode(rawValue: "brand_new_code"))
        #expect(error.code.rawValue == "brand_new_code")
        #expect(error.code != .unknown)
        #expect(error.message == "Something new")
        #expect(error.details == ["limit": 3])
        #expect(error.retryAfter == 7)
    }

    /// `Retry-After` as an HTTP date (RFC 9110 §10.2.3; a proxy's or a CDN's 503) is read as the seconds until it:
    /// it was `nil`, and a retry then waited only its jitter.
    @Test func aRetryAfterDateIsReadAsSecondsFromNow() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: Date().addingTimeInterval(120))
        let server = CannedServer(
            response: "HTTP/1.1 503 Service Unavailable\r\nRetry-After: \(date)\r\nContent-Length: 0\r\n\r\n")
        let error = try await #require(throws: LinkServiceError.self) {
            try await server.client().resolve(url: "/users/42")
        }
        #expect(error.status == 503)
        // 120 s from when the date was written, less however long the call took to come back.
        #expect((60...121).contains(error.retryAfter ?? -1), "\(String(describing: error.retryAfter))")
    }

    /// An envelope without a message (another version's, a proxy's) keeps its code: it was `unknown`.
    @Test func anEnvelopeWithoutAMessageKeepsItsCode() async throws {
        let body = #"{"error":{"code":"unavailable"}}"#
        let server = CannedServer(
            response: "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let error = try await #require(throws: LinkServiceError.self) {
            try await server.client().resolve(url: "/users/42")
        }
        #expect(error.status == 503)
        #expect(error.code == .unavailable)
        #expect(error.message == "")
        #expect(error.retryAfter == 1)
    }

    /// An error answer that is not the envelope (a proxy's page) is still a typed error, with the `unknown` code and
    /// the body's start as its message; one past the 1 MiB read is cut, not a transport error without a status.
    @Test(arguments: ["<html>Bad gateway</html>", String(repeating: "x", count: 2 << 20)])
    func anAnswerWithoutTheEnvelopeIsUnknown(body: String) async throws {
        let server = CannedServer(
            response: "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let client = server.client()
        let error = try await #require(throws: LinkServiceError.self) {
            try await client.resolve(url: "/users/42")
        }
        #expect(error.status == 502)
        #expect(error.code == .unknown)
        #expect(error.message == String(body.prefix(200)))
    }

    /// A request the contract's shape cannot hold (a number JSON cannot write) is refused before it is sent, as
    /// the service would refuse it, typed: never a raw `EncodingError`.
    @Test func aRequestTheContractCannotHoldIsInvalidRequest() async throws {
        let server = CannedServer(response: "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")
        let client = server.client()
        let error = try await #require(throws: LinkServiceError.self) {
            try await client.emit(location: "/e", extra: ["n": .number(.nan)])
        }
        #expect(error.status == 400)
        #expect(error.code == .invalidRequest)
        #expect(error.details == ["operation": "emitEvent"])
        #expect(server.received.requests(startingWith: "POST").isEmpty)
    }

    /// The same for a slot's payload: it was converted outside the check and escaped as Foundation's
    /// `EncodingError`.
    @Test func aPayloadTheContractCannotHoldIsInvalidRequest() async throws {
        let server = CannedServer(response: "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")
        let client = server.client()
        let error = try await #require(throws: LinkServiceError.self) {
            try await client.present(in: "home", id: "promo", priority: 1, payload: ["n": .number(.infinity)])
        }
        #expect(error.status == 400)
        #expect(error.code == .invalidRequest)
        #expect(error.details == ["operation": "presentInSlot"])
        #expect(server.received.requests(startingWith: "POST").isEmpty)
    }

    /// §9: the install id is made once and kept: the same on every later call, under its key only.
    @Test func thePersistentInstallIDIsKept() throws {
        let suite = "LinkClientTests.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let first = InstallID.persistent(defaults: defaults)
        #expect(UUID(uuidString: first) != nil)
        #expect(InstallID.persistent(defaults: defaults) == first)
        // What a later launch reads: the stored value, through another defaults object for the same suite.
        let later = try #require(UserDefaults(suiteName: suite))
        #expect(InstallID.persistent(defaults: later) == first)
        #expect(InstallID.persistent(defaults: defaults, key: "another") != first)
        #if !canImport(Darwin)
            // swift-corelibs-foundation writes defaults to disk only when asked: the id must be in the suite's file
            // (`$XDG_CONFIG_HOME`, else `~/.config`), or a later launch makes another.
            let environment = ProcessInfo.processInfo.environment
            let folder =
                environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".config")
            let file = folder.appendingPathComponent("\(suite).plist")
            let stored = try PropertyListSerialization.propertyList(from: Data(contentsOf: file), format: nil)
            #expect((stored as? [String: Any])?["LinkClient.installID"] as? String == first)
        #endif
    }
}
