import Foundation
import OpenAPIRuntime

/// RFC 3339 timestamps with or without fractional seconds (the service writes milliseconds:
/// `2026-11-23T09:00:00.123Z`; the runtime's default transcoder reads none).
struct RFC3339Transcoder: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    func decode(_ string: String) throws -> Date {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(string) { return date }
        return try Date.ISO8601FormatStyle().parse(string)
    }
}
