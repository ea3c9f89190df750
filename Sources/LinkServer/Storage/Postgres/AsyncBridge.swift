import Dispatch
import Synchronization

/// Runs async PostgresNIO work for the synchronous ``Store`` API.
///
/// The caller's thread (an MHD worker, a timer thread, or `main` at start) waits on a semaphore while a task does the
/// work on the Swift concurrency pool and the NIO event loops; it blocks for one database round trip, as it does for
/// an SQLite commit. The wait is bounded: past `timeout` the task is cancelled and the caller gets `unavailable`.
/// Never call it from async code: it would block a thread of the cooperative pool the work itself needs.
enum AsyncBridge {
    /// The answer of one piece of work, handed from the task to the waiting thread.
    private final class Handoff<Value: Sendable>: Sendable {
        let result = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    static func wait<Value: Sendable>(
        timeout: Duration, _ work: @escaping @Sendable () async throws -> Value
    ) throws -> Value {
        let handoff = Handoff<Value>()
        let task = Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            handoff.result.withLock { $0 = result }
            handoff.done.signal()
        }
        let milliseconds = Int(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        if handoff.done.wait(timeout: .now() + .milliseconds(milliseconds)) == .timedOut {
            task.cancel()
            throw PostgresStoreError.timedOut
        }
        guard let result = handoff.result.withLock({ $0 }) else { throw PostgresStoreError.timedOut }
        return try result.get()
    }
}
