import Foundation
import LinkCore
import Logging
import Synchronization
import Testing

@testable import LinkServer

/// `logging.format: json`: one JSON object a line, with the time, level, message, label and metadata.
@Suite struct JSONLogHandlerTests {
    final class Lines: Sendable {
        private let lines = Mutex<[[UInt8]]>([])
        var all: [[UInt8]] { lines.withLock { $0 } }
        func add(_ line: [UInt8]) { lines.withLock { $0.append(line) } }
    }

    @Test func eachLineIsOneJSONObjectWithItsMetadata() throws {
        let lines = Lines()
        var handler = JSONLogHandler(label: "LinkServer", sink: lines.add, clock: { 1_796_000_000_123 })
        handler.logLevel = .debug
        handler[metadataKey: "instance"] = "a"
        let logger = Logger(label: "LinkServer") { _ in handler }
        logger.info(
            "a \"quoted\"\nline",
            metadata: [
                "request.id": "r-1", "status": .stringConvertible(404), "hosts": ["a", "b"],
                "limits": ["max": "3"], "level": "not the level",
            ])
        logger.trace("below the level")
        let written = try #require(lines.all.first)
        #expect(lines.all.count == 1)
        #expect(written.last == UInt8(ascii: "\n"))
        #expect(!written.dropLast().contains(UInt8(ascii: "\n")))
        let json = try JSONParser.parse(Array(written.dropLast()))
        #expect(
            json == [
                "time": "2026-11-30T00:53:20.123Z", "level": "info", "message": "a \"quoted\"\nline",
                "label": "LinkServer", "hosts": ["a", "b"], "instance": "a", "metadata.level": "not the level",
                "limits": ["max": "3"], "request.id": "r-1", "status": "404",
            ])
    }
}
