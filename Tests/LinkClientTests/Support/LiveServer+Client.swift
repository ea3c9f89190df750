import Foundation
import Synchronization

@testable import LinkClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LiveServer {
    /// A client of this server's API listener; `admin` sends the admin token.
    func client(admin: Bool = true, installID: String? = nil) -> LinkClient {
        LinkClient(baseURL: baseURL, token: admin ? LiveServer.adminToken : nil, installID: installID)
    }
}

/// Consumes a sequence in a task of its own and keeps what it delivers, so a test waits (with a deadline) for
/// what it expects and fails, rather than hangs, when it does not come.
final class Collector: Sendable {
    private final class Received: Sendable {
        let state = Mutex<(elements: [EventSequence.Element], end: Result<Void, any Error>?)>(([], nil))
        func withLock<T>(_ body: (inout (elements: [EventSequence.Element], end: Result<Void, any Error>?)) -> T) -> T {
            state.withLock { body(&$0) }
        }
    }
    private let received: Received
    private let task: Task<Void, Never>

    init(_ sequence: EventSequence) {
        let received = Received()
        self.received = received
        task = Task {
            do {
                for try await element in sequence { received.withLock { $0.elements.append(element) } }
                received.withLock { $0.end = .success(()) }
            } catch {
                received.withLock { $0.end = .failure(error) }
            }
        }
    }

    /// The next element; `nil` when the sequence ended; throws what ended it, or ``Timeout`` after `timeout`.
    ///
    /// The default is long because it only matters when the test fails: in the full suite, blocking tests hold the
    /// cooperative pool's two threads for a minute at times (docs/reliability.md). What arrived is looked at once
    /// more after the deadline, for a waiter that was itself held past it.
    func next(timeout: Duration = .seconds(120)) async throws -> EventSequence.Element? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let expired = ContinuousClock.now >= deadline
            let (element, end) = received.withLock { state -> (EventSequence.Element?, Result<Void, any Error>?) in
                if !state.elements.isEmpty { return (state.elements.removeFirst(), nil) }
                return (nil, state.end)
            }
            if let element { return element }
            if let end {
                try end.get()
                return nil
            }
            if expired { throw Timeout() }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The next element, which must be an event (anything else fails the test by throwing).
    func nextEvent(timeout: Duration = .seconds(120)) async throws -> Event {
        let element = try await next(timeout: timeout)
        guard case .event(let event)? = element else { throw Unexpected(element: element) }
        return event
    }

    /// Cancels the consuming task and waits until the sequence has ended.
    func cancel() async {
        task.cancel()
        await task.value
    }

    /// Whether the sequence has ended.
    var ended: Bool { received.withLock { $0.end != nil } }

    struct Timeout: Error {}
    struct Unexpected: Error { let element: EventSequence.Element? }
}

/// A value shared between a test and a task it started.
final class Box<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// Waits until `condition` holds, checking every 10 ms; `false` after `timeout` (long: it only matters when the
/// test fails, and blocking tests in the full suite hold the pool's threads for a minute at times).
func waitUntil(timeout: Duration = .seconds(120), _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// ``waitUntil(timeout:_:)`` for a condition that asks the server.
func waitUntil(timeout: Duration = .seconds(120), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}

/// Runs `body` in a task of its own and waits for it at most `timeout`: a test that would wait for ever (for an
/// event nobody will emit) fails with ``Collector/Timeout`` instead, and its task is left behind.
func bounded<T: Sendable>(
    _ timeout: Duration = .seconds(150), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    do {
        return try await DetachedCall.run(deadline: Double(timeout.components.seconds), body)
    } catch let error as URLError where error.code == .timedOut {
        throw Collector.Timeout()
    }
}
