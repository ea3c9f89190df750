import LinkCore
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A swift-log handler that writes each line as one JSON object (`logging.format: json`), for log collectors
/// (Loki, CloudWatch, Datadog, `jq`): `{"time", "level", "message", "label", …metadata}`, the time in RFC 3339 UTC
/// with milliseconds, the metadata's keys at the top level as they are (`request.id`, `error`), nested values as
/// JSON arrays and objects. A metadata key that is one of the fixed ones is written as `metadata.<key>`.
struct JSONLogHandler: LogHandler {
    /// Where a finished line goes (with its line end): standard error, or a test's collector.
    typealias Sink = @Sendable ([UInt8]) -> Void

    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    private let sink: Sink
    private let clock: @Sendable () -> Int64

    static let fixedKeys: Set<String> = ["time", "level", "message", "label"]

    init(
        label: String, sink: @escaping Sink = JSONLogHandler.standardError,
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds
    ) {
        self.label = label
        self.sink = sink
        self.clock = clock
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let given = event.metadata { merged.merge(given) { _, new in new } }
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("time")
        writer.string(UTCCalendar.rfc3339(milliseconds: clock()))
        writer.key("level")
        writer.string(event.level.rawValue)
        writer.key("message")
        writer.string(event.message.description)
        writer.key("label")
        writer.string(label)
        for key in merged.keys.sorted() {
            writer.key(string: JSONLogHandler.fixedKeys.contains(key) ? "metadata." + key : key)
            writer.value(JSONLogHandler.json(merged[key]!))
        }
        writer.endObject()
        sink(writer.bytes + [UInt8(ascii: "\n")])
    }

    /// A metadata value as JSON: strings as strings, arrays and dictionaries as JSON arrays and objects.
    static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let values):
            .object(
                JSONObject(
                    uniqueKeysWithValues: values.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) }))
        }
    }

    /// Writes a line to standard error in one `write(2)`, so that lines from several threads never interleave (a
    /// pipe keeps writes of up to `PIPE_BUF` bytes whole; longer ones are rare and kept whole by the lock).
    static let standardError: Sink = { line in
        lineLock.withLock { _ in
            line.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += written
                }
            }
        }
    }

    private static let lineLock = Mutex(())
}
