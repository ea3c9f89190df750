import Dispatch
import Synchronization

/// Runs async PostgresNIO work for the synchronous ``Store`` API.
///
/// The caller's thread (an MHD worker, a timer thread, or `main` at start) waits on a semaphore while a task does the
/// work on the NIO event loops and on ``executor``; it blocks for one database round trip, as it does for an SQLite
/// commit. The wait is bounded: past `timeout` the task is cancelled and the caller gets `unavailable`.
///
/// The tasks prefer their own executor (a Dispatch queue) to Swift's cooperative pool: that pool has one thread per
/// core, and code that parks its threads (a synchronous caller that is itself on the pool) could otherwise starve
/// the very task it waits for.
enum AsyncBridge {
    /// Runs the bridge's tasks on Dispatch's threads rather than on the cooperative pool.
    final class Executor: TaskExecutor {
        private let queue = DispatchQueue(label: "linkserver-store", attributes: .concurrent)

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }
    }

    static let executor = Executor()

    /// The answer of one piece of work, handed from the task to the waiting thread.
    private final class Handoff<Value: Sendable>: Sendable {
        let result = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    static func wait<Value: Sendable>(
        timeout: Duration, _ work: @escaping @Sendable () async throws -> Value
    ) throws -> Value {
        let handoff = Handoff<Value>()
        let task = Task(executorPreference: executor) {
            let result: Result<Value, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            handoff.result.withLock { $0 = result }
            handoff.done.signal()
        }
        let milliseconds = Int(timeout.milliseconds)
        if handoff.done.wait(timeout: .now() + .milliseconds(milliseconds)) == .timedOut {
            task.cancel()
            throw PostgresStoreError.timedOut
        }
        guard let result = handoff.result.withLock({ $0 }) else { throw PostgresStoreError.timedOut }
        return try result.get()
    }
}
