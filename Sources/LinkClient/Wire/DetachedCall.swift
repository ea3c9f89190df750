import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs one request in a task of its own and waits for whichever comes first: its answer, the caller's
/// cancellation, or a deadline.
///
/// Two defects of URLSession on Linux (FoundationNetworking, Swift 6.3) make the plain `await` unsafe there:
/// - `URLSessionTask.cancel()` racing the task's own completion stops the process ("Trying to access a behaviour for
///   a task that in not in the registry"): cancelling a call (an event sequence's consumer, a view going away) at the
///   wrong moment crashed the app. So on Linux a call given up is *abandoned*, never cancelled: the caller gets
///   `cancelled` at once, and the request ends by itself (its answer or URLSession's own timeout) unseen.
/// - A request whose completion never comes would hold its caller for ever; the deadline bounds every call.
///
/// Elsewhere URLSession's cancellation is sound, and an abandoned request is cancelled too.
enum DetachedCall {
    /// Whether a request given up is also cancelled (see above).
    #if canImport(FoundationNetworking)
        static let cancelsAbandonedWork = false
    #else
        static let cancelsAbandonedWork = true
    #endif

    /// The answer of `work`, or `URLError(.timedOut)` after `deadline` seconds (none when not finite and positive),
    /// or `CancellationError` as soon as the calling task is cancelled (at once when it already is: a write asked
    /// for by a task being cancelled is not sent). `started` is handed the task running `work`, which may outlive
    /// the call (an event sequence closes its session only once that task is over).
    static func run<Value: Sendable>(
        deadline: TimeInterval, started: (@Sendable (Task<Void, Never>) -> Void)? = nil,
        _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try Task.checkCancellation()
        let outcome = Outcome<Value>()
        let worker = Task {
            do {
                outcome.settle(.success(try await work()))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        started?(worker)
        let watchdog: Task<Void, Never>? =
            deadline.isFinite && deadline > 0
            ? Task {
                // Past ~292 years of nanoseconds the deadline is as good as none.
                guard deadline < 9e9, (try? await Task.sleep(nanoseconds: UInt64(deadline * 1e9))) != nil else {
                    return
                }
                outcome.settle(.failure(URLError(.timedOut)))
            } : nil
        defer {
            watchdog?.cancel()
            if cancelsAbandonedWork { worker.cancel() }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { outcome.wait(with: $0) }
        } onCancel: {
            outcome.settle(.failure(CancellationError()))
        }
    }

    /// The first of the answer, the deadline and the cancellation, handed to the one waiting caller once.
    private final class Outcome<Value: Sendable>: @unchecked Sendable {
        // @unchecked: every stored property is read and written under `lock`.
        private let lock = NSLock()
        private var waiting: CheckedContinuation<Value, any Error>?
        private var result: Result<Value, any Error>?

        /// Settles the outcome unless it already is; the later ones are dropped.
        func settle(_ outcome: Result<Value, any Error>) {
            let continuation: CheckedContinuation<Value, any Error>? = lock.withLock {
                guard result == nil else { return nil }
                result = outcome
                defer { waiting = nil }
                return waiting
            }
            continuation?.resume(with: outcome)
        }

        /// Resumes `continuation` with the outcome, now or when it is settled.
        func wait(with continuation: CheckedContinuation<Value, any Error>) {
            let settled: Result<Value, any Error>? = lock.withLock {
                if result == nil { waiting = continuation }
                return result
            }
            if let settled { continuation.resume(with: settled) }
        }
    }
}
