import LinkCore
import Logging
import Synchronization
import Testing

@testable import LinkServer

/// libmicrohttpd's own log lines reach the daemon's swift-log logger (`MHD_OPTION_EXTERNAL_LOGGER`), not stderr.
@Suite struct DaemonLogTests {
    /// Keeps every message logged through it.
    final class Capture: Sendable {
        let entries = Mutex<[(message: String, metadata: Logger.Metadata)]>([])

        func handler(label: String) -> any LogHandler { Handler(capture: self) }

        struct Handler: LogHandler {
            let capture: Capture
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                capture.entries.withLock { $0.append((event.message.description, event.metadata ?? [:])) }
            }
        }
    }

    /// Answers every request 200; these tests never reach it.
    final class Answering: RequestHandler {
        let label = EndpointLabel("any")
        func handle(_ request: Request) -> (endpoint: EndpointLabel, reply: Reply) { (label, .now(.json(.null))) }
        func completed(_ summary: RequestSummary) {}
    }

    /// A daemon on a free loopback port whose log lines are captured.
    private static func started() throws -> (Daemon, Capture) {
        let capture = Capture()
        var settings = DaemonSettings()
        settings.host = "127.0.0.1"
        settings.port = 0
        let daemon = Daemon(
            settings: settings, handler: Answering(), logger: Logger(label: "test", factory: capture.handler))
        try daemon.start()
        return (daemon, capture)
    }

    @Test func aRequestMHDRefusesItselfIsLoggedThroughSwiftLog() throws {
        let (daemon, capture) = try Self.started()
        defer { daemon.stop() }
        // A header line without a colon: libmicrohttpd answers 400 on its own, logs why and closes.
        let client = HTTPClient(port: daemon.port)
        try client.sendRaw(Array("GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n".utf8))
        let answer = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 400"))
        let lines = capture.entries.withLock { $0 }.filter { $0.metadata["source"] == "libmicrohttpd" }
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { !$0.message.isEmpty && !$0.message.hasSuffix("\n") })
    }

    /// A start logs nothing of libmicrohttpd's (the logger was once not the first option, and every start said so).
    @Test func aStartIsQuiet() throws {
        let (daemon, capture) = try Self.started()
        daemon.stop()
        let lines = capture.entries.withLock { $0 }.filter { $0.metadata["source"] == "libmicrohttpd" }
        #expect(lines.map(\.message) == [])
    }

    /// A flood of malformed requests writes at most 20 of libmicrohttpd's lines per 10 s; the first line of the next
    /// window says how many were left out.
    @Test func libmicrohttpdsLinesAreBoundedPerWindow() {
        var budget = LogBudget()
        let start: Int64 = 1_000_000_000
        let decisions = (0..<50).map { budget.admit(now: start + Int64($0) * 1_000_000) }
        #expect(decisions.prefix(20).allSatisfy { $0 == .write(suppressed: 0) })
        #expect(decisions.dropFirst(20).allSatisfy { $0 == .suppress })
        #expect(budget.admit(now: start + LogBudget.window + 1) == .write(suppressed: 30))
        #expect(budget.admit(now: start + LogBudget.window + 2) == .write(suppressed: 0))
    }

    /// libmicrohttpd's refusals speak of its own options; the line names the service's setting behind them.
    @Test func aRefusalNamesTheSettingBehindIt() {
        #expect(
            Daemon.setting(behind: "Server reached connection limit. Closing inbound connection.")?.contains(
                "server.connectionLimitPerAddress") == true)
        #expect(
            Daemon.setting(
                behind: "Hit process or system resource limit at 4976 connections, temporarily suspending accept()."
            )?.contains("LimitNOFILE") == true)
        #expect(Daemon.setting(behind: "Failed to bind to port 8080: Address already in use") == nil)
    }

    @Test func aFloodOfMalformedRequestsWritesABoundedNumberOfLines() throws {
        let (daemon, capture) = try Self.started()
        defer { daemon.stop() }
        for _ in 0..<60 {
            let client = HTTPClient(port: daemon.port)
            try client.sendRaw(Array("GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n".utf8))
            _ = try client.readToEnd()
        }
        let lines = capture.entries.withLock { $0 }.filter { $0.metadata["source"] == "libmicrohttpd" }
        #expect(!lines.isEmpty)
        #expect(lines.count <= LogBudget.linesPerWindow)
    }
}
