import Logging
import Testing

@testable import LinkServer

/// The access line of a request (`logging.accessLog`): logged at its own level with the request's facts, and not
/// at all when that level is off or below the logger's (the shipped config: `info`, access lines at `debug`).
@Suite struct AccessLogTests {
    private static let summary = RequestSummary(
        method: "GET", target: "/users/42?ref=mail", endpoint: EndpointLabel("links"), status: 302,
        duration: .microseconds(1_250), requestID: "abc-1", answered: true)

    private static func logger(at level: Logger.Level) -> (Logger, DaemonLogTests.Capture) {
        let capture = DaemonLogTests.Capture()
        var logger = Logger(label: "test", factory: capture.handler)
        logger.logLevel = level
        return (logger, capture)
    }

    @Test func theLineCarriesTheRequestsFacts() {
        let (logger, capture) = Self.logger(at: .debug)
        Self.summary.log(to: logger, level: .info, listener: "links")
        let entries = capture.entries.withLock { $0 }
        #expect(entries.map(\.message) == ["request"])
        let metadata = entries.first?.metadata ?? [:]
        #expect(metadata["request.id"] == "abc-1")
        #expect(metadata["http.method"] == "GET")
        #expect(metadata["http.endpoint"] == "links")
        #expect(metadata["http.status"] == "302")
        #expect(metadata["duration.us"] == "1250")
        #expect(metadata["answered"] == "true")
        #expect(metadata["listener"] == "links")
    }

    /// A dispatcher keeps no access level when its logger would drop every line: a request then never asks.
    @Test func theLevelKeptIsNoneWhenTheLoggerWouldDropTheLine() {
        let (info, _) = Self.logger(at: .info)
        #expect(RequestSummary.accessLevel(.debug, under: info) == nil)
        #expect(RequestSummary.accessLevel(nil, under: info) == nil)
        #expect(RequestSummary.accessLevel(.info, under: info) == .info)
        #expect(RequestSummary.accessLevel(.notice, under: info) == .notice)
        let (trace, _) = Self.logger(at: .trace)
        #expect(RequestSummary.accessLevel(.debug, under: trace) == .debug)
    }

    @Test func noLineBelowTheLoggersLevelOrWhenOff() {
        let (logger, capture) = Self.logger(at: .info)
        Self.summary.log(to: logger, level: .debug)
        Self.summary.log(to: logger, level: nil)
        #expect(capture.entries.withLock { $0 }.isEmpty)
        Self.summary.log(to: logger, level: .notice)
        #expect(capture.entries.withLock { $0 }.count == 1)
    }
}
