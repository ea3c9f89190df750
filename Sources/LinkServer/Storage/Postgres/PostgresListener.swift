import Logging
import PostgresNIO
import Synchronization

/// The listening connection of a shared store (API.md §12): `LISTEN linkserver_changes` on a connection of its
/// own, outside the pool, that never holds a transaction open.
///
/// Notifications are only wake-ups: each payload is handed to `notified` (a table and its revision, or a poll's
/// generation), and the state is then read from the tables. A lost connection is made again with a backoff of at
/// most 5 s; after every (re)connect `connected` runs first, so the owner re-reads whatever it may have missed.
final class PostgresListener: Sendable {
    static let channel = "linkserver_changes"
    static let maxBackoff = Duration.seconds(5)

    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(location: PostgresLocation, logger: Logger) throws {
        configuration = try PostgresStore.connectionConfiguration(location)
        self.logger = logger
    }

    /// Starts listening in the background.
    func start(connected: @escaping @Sendable () -> Void, notified: @escaping @Sendable (String) -> Void) {
        let listening = Task(executorPreference: AsyncBridge.executor) { [configuration, logger] in
            var backoff = Duration.milliseconds(100)
            var id = 1
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(
                        configuration: configuration, id: id, logger: logger)
                    id += 1
                    backoff = .milliseconds(100)
                    defer { Task { try? await connection.close() } }
                    try await connection.listen(on: PostgresListener.channel) { notifications in
                        connected()
                        for try await notification in notifications { notified(notification.payload) }
                    }
                } catch {
                    if Task.isCancelled { break }
                    logger.debug("listening connection lost", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, PostgresListener.maxBackoff)
            }
        }
        task.withLock { $0 = listening }
    }

    func stop() {
        task.withLock { $0 }?.cancel()
    }
}
