import Dispatch
import Synchronization

/// Runs async PostgresNIO work for the synchronous ``Store`` API.
///
/// The caller's thread (an MHD worker, a timer thread, or `main` at start) waits on a semaphore while a task does the
/// work on the NIO event loops and on ``executor``; it blocks for one database round trip, as it does for an SQLite
/// commit. The wait is bounded: past `timeout` the task is cancelled and the caller gets `unavailable`, unless a
/// commit has begun (``Commitment``), whose outcome the caller then waits for.
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
        try wait(timeout: timeout, commitLimit: .zero) { _ in try await work() }
    }

    /// Runs `work`, which calls ``Commitment/begin()`` before any statement that may commit. Past `timeout` the caller
    /// gives up (the task is cancelled, `timedOut`) unless a commit has begun; then it waits for the commit's outcome
    /// up to `commitLimit` after it began (the database's statement limit bounds it), so that an answer of
    /// `unavailable` means the change was not made. A commit begun later throws `timedOut` instead.
    static func wait<Value: Sendable>(
        timeout: Duration, commitLimit: Duration, _ work: @escaping @Sendable (Commitment) async throws -> Value
    ) throws -> Value {
        let handoff = Handoff<Value>()
        let commitment = Commitment()
        let task = Task(executorPreference: executor) {
            let result: Result<Value, any Error>
            do {
                result = .success(try await work(commitment))
            } catch {
                result = .failure(error)
            }
            handoff.result.withLock { $0 = result }
            handoff.done.signal()
        }
        if handoff.done.wait(timeout: .now() + .milliseconds(Int(timeout.milliseconds))) == .timedOut {
            guard let begun = commitment.abandon() else {
                task.cancel()
                throw PostgresStoreError.timedOut
            }
            let limit = DispatchTime(uptimeNanoseconds: begun) + .milliseconds(Int(commitLimit.milliseconds))
            if handoff.done.wait(timeout: limit) == .timedOut {
                // The database did not answer within its own limit (the network or the server stalled): the
                // outcome is unknown, as it is for any write whose answer is lost.
                task.cancel()
                throw PostgresStoreError.timedOut
            }
        }
        guard let result = handoff.result.withLock({ $0 }) else { throw PostgresStoreError.timedOut }
        return try result.get()
    }

    /// Whether a call's work may still commit: the work asks before it sends a statement that may (``begin()``), the
    /// waiting caller once its time is up (``abandon()``); whichever comes first decides.
    final class Commitment: Sendable {
        /// 0 while neither happened; `abandoned` once the caller gave up; else the uptime in nanoseconds at which
        /// the first commit began.
        private let state = Atomic<UInt64>(0)
        private static let abandoned = UInt64.max

        /// Called before a statement that may commit: throws `timedOut` once the caller has given up (nothing is
        /// sent); otherwise the caller waits for the outcome from now on.
        func begin() throws {
            let now = max(1, DispatchTime.now().uptimeNanoseconds)
            let (exchanged, original) = state.compareExchange(
                expected: 0, desired: now, ordering: .acquiringAndReleasing)
            if !exchanged, original == Self.abandoned { throw PostgresStoreError.timedOut }
        }

        /// Called by the caller whose time is up: `nil` when it gives up (no commit begins after this), else the
        /// uptime at which a commit began.
        func abandon() -> UInt64? {
            let (exchanged, original) = state.compareExchange(
                expected: 0, desired: Self.abandoned, ordering: .acquiringAndReleasing)
            return exchanged ? nil : original
        }
    }
}
