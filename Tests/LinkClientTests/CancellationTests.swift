import Foundation
import Synchronization
import Testing

@testable import LinkClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call ends with its answer, at once when its caller is cancelled, or at its deadline when URLSession never
/// answers; never by taking the process down.
@Suite struct CancellationTests {
    /// On Linux, `URLSessionTask.cancel()` racing the task's own completion stops the process
    /// (FoundationNetworking: "Trying to access a behaviour for a task that in not in the registry"); before calls
    /// were detached (``DetachedCall``), this test stopped the test process in 4 of 5 runs. Rounds cancel after
    /// 0–1 ms, so that some land before, during and after the answer.
    @Test func cancellingCallsAtAnyMomentNeverStopsTheProcess() async throws {
        try await withLiveServer { server in
            let client = server.client()
            var answered = 0
            var cancelled = 0
            for round in 0..<2_000 {
                let call = Task { try await client.routes() }
                try await Task.sleep(for: .microseconds((round * 37) % 1_000))
                call.cancel()
                do {
                    _ = try await call.value
                    answered += 1
                } catch let error as LinkTransportError {
                    #expect(error.kind == .cancelled, "\(error)")
                    cancelled += 1
                }
            }
            #expect(answered + cancelled == 2_000)
            #expect(cancelled > 0)
            // The client is still in working order.
            #expect(try await client.routes().isEmpty)
        }
    }

    /// A call made by a task already cancelled (a job shutting down that still calls `emit`) is answered
    /// `cancelled` and its request is never started: on Linux an abandoned request is left to run, so it was sent.
    @Test func aCallFromACancelledTaskStartsNoRequest() async throws {
        let started = Mutex(false)
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await DetachedCall.run(deadline: 10, started: { _ in started.withLock { $0 = true } }) { 1 }
        }
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(!started.withLock { $0 })
    }

    /// An event sequence's consumer cancelled at any moment, a poll starting included, never stops the process: the
    /// polls' session is closed only once the last poll's request is over (a request made on a closed session is
    /// FoundationNetworking's "Session invalidated" fatal error, Darwin's exception).
    @Test func cancellingAnEventSequenceAtAnyMomentNeverStopsTheProcess() async throws {
        try await withLiveServer { server in
            let client = server.client()
            for round in 0..<200 {
                let consumer = Task {
                    for try await _ in client.events([.path("/race/:i")], wait: 1) {}
                }
                try await Task.sleep(for: .microseconds((round * 97) % 5_000))
                consumer.cancel()
                _ = try? await consumer.value
            }
            // The client is still in working order.
            #expect(try await client.emit(location: "/race/1").matched == ["/race/:i"])
        }
    }

    /// A request whose completion never comes (as URLSession on Linux has been seen to lose one) ends at the
    /// deadline as a timeout.
    @Test func aLostAnswerEndsAtTheDeadline() async throws {
        let started = ContinuousClock.now
        let error = try await #require(throws: URLError.self) {
            try await DetachedCall.run(deadline: 0.2) { try await Self.neverAnswered() }
        }
        #expect(error.code == .timedOut)
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        // Through the wire, a timeout is the client's own timed-out error.
        let classified = Wire.classify(error, operation: "resolve") as? LinkTransportError
        #expect(classified?.kind == .timedOut)
    }

    /// The caller is answered `cancelled` at once, while the request itself is left to end by itself on Linux
    /// (cancelling it is what crashed) and cancelled elsewhere.
    @Test func aCancelledCallerIsAnsweredAtOnce() async throws {
        let workCancelled = Mutex<Bool?>(nil)
        let release = AsyncStream<Void>.makeStream()
        let running = Mutex(false)
        let call = Task {
            try await DetachedCall.run(deadline: 60, started: { _ in running.withLock { $0 = true } }) {
                () async throws -> Int in
                for await _ in release.stream {}
                workCancelled.withLock { $0 = Task.isCancelled }
                return 1
            }
        }
        // Were the caller held until the request ends, this ends the request, which answers 1, and the test fails
        // rather than hangs. (No bound on the time: in the full suite, blocking tests hold the cooperative pool's
        // two threads for tens of seconds at times.)
        Task {
            try? await Task.sleep(for: .seconds(5))
            release.continuation.finish()
        }
        // Cancelled once its request runs (a call cancelled before it starts none: see below).
        #expect(try await waitUntil { running.withLock { $0 } })
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        release.continuation.finish()
        #expect(
            try await waitUntil { workCancelled.withLock { $0 } != nil }
                && workCancelled.withLock { $0 } == DetachedCall.cancelsAbandonedWork)
    }

    @Test func answersAndErrorsPassThrough() async throws {
        #expect(try await DetachedCall.run(deadline: 10) { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await DetachedCall.run(deadline: 10) { () throws -> Int in throw Refused() }
        }
        // No deadline when the session has none.
        #expect(try await DetachedCall.run(deadline: .infinity) { "no deadline" } == "no deadline")
    }

    /// Waits for a continuation that nobody resumes: a lost completion.
    private static func neverAnswered() async throws -> Int {
        let never = AsyncStream<Int>.makeStream()
        for await value in never.stream { return value }
        throw CancellationError()
    }
}
