import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One open connection as ``ConnectionDeadlines`` sees it: its socket and the instant by which it must have delivered
/// what it owes next (a request head, or a body).
final class WatchedConnection: Sendable {
    /// No deadline: the connection owes nothing (its request is being answered, or it was already dropped).
    static let never = Int64.max

    let socket: Int32
    /// Nanoseconds on the owning ``ConnectionDeadlines``' clock, or ``never``.
    let deadline = Atomic<Int64>(WatchedConnection.never)
    /// True until libmicrohttpd closes the socket; the socket is shut down only under this lock while it holds, so a
    /// socket number reused by a newer connection is never touched.
    private let open = Mutex(true)

    init(socket: Int32) {
        self.socket = socket
    }

    /// Shuts the socket down (both ways) unless libmicrohttpd has closed it; MHD then sees the end of the stream on
    /// its own thread and closes the connection as usual.
    func shutDown() {
        open.withLock { open in
            if open { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Called before libmicrohttpd closes the socket.
    func markClosed() {
        open.withLock { $0 = false }
    }
}

/// Bounds the time a connection may take to deliver a request head (`server.headerTimeout`) and a body
/// (`server.bodyTimeout`). libmicrohttpd's own connection timeout is an idle timeout — every byte restarts it — so a
/// client sending one byte a second holds its connection for ever (slowloris). The daemon sets each connection's
/// deadline as the request moves on; one thread looks over all of them a few times a second and shuts down the
/// sockets of those past theirs.
final class ConnectionDeadlines: Sendable {
    private let headerTimeout: Int64
    private let bodyTimeout: Int64
    private let connections = Mutex<[ObjectIdentifier: WatchedConnection]>([:])
    private let running = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let droppedCount = Atomic<Int>(0)
    /// How often deadlines are checked: a connection is dropped at most this late.
    private static let interval = DispatchTimeInterval.milliseconds(200)

    /// Timeouts in seconds.
    init(headerTimeout: Int, bodyTimeout: Int) {
        self.headerTimeout = Int64(headerTimeout) * 1_000_000_000
        self.bodyTimeout = Int64(bodyTimeout) * 1_000_000_000
    }

    /// Connections dropped for missing a deadline since the start.
    var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// A connection was accepted: it owes a request head within the header timeout.
    func opened(socket: Int32) -> WatchedConnection {
        let connection = WatchedConnection(socket: socket)
        awaitHead(connection)
        connections.withLock { $0[ObjectIdentifier(connection)] = connection }
        return connection
    }

    /// libmicrohttpd is about to close the connection's socket.
    func closed(_ connection: WatchedConnection) {
        connection.markClosed()
        _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// The connection waits for a request (accepted, or kept alive after a response): its head is due. `now` is
    /// ``MonotonicClock/nanoseconds()`` when the caller has just read it.
    func awaitHead(_ connection: WatchedConnection, now: Int64? = nil) {
        connection.deadline.store((now ?? self.now()) + headerTimeout, ordering: .relaxed)
    }

    /// The head is in and a body follows: the body is due.
    func awaitBody(_ connection: WatchedConnection) {
        connection.deadline.store(now() + bodyTimeout, ordering: .relaxed)
    }

    /// The request is complete (or answered): nothing is due until its response has gone.
    func clear(_ connection: WatchedConnection) {
        connection.deadline.store(WatchedConnection.never, ordering: .relaxed)
    }

    /// Starts the checking thread.
    func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in run() }
        thread.name = "linkserver-deadlines"
        thread.start()
    }

    /// Stops the checking thread and waits for it.
    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        finished.wait()
    }

    private func run() {
        while running.load(ordering: .acquiring) {
            sweep()
            _ = wake.wait(timeout: .now() + ConnectionDeadlines.interval)
        }
        finished.signal()
    }

    /// Shuts down every connection past its deadline. The shared lock is held only to collect them; each socket
    /// is shut down under its own connection's lock.
    private func sweep() {
        let now = now()
        let late = connections.withLock { connections in
            connections.values.filter { $0.deadline.load(ordering: .relaxed) <= now }
        }
        for connection in late {
            let deadline = connection.deadline.load(ordering: .relaxed)
            // The daemon may have moved the deadline since (the head arrived just in time): then leave it.
            guard deadline <= now,
                connection.deadline.compareExchange(
                    expected: deadline, desired: WatchedConnection.never, ordering: .relaxed
                ).exchanged
            else { continue }
            connection.shutDown()
            droppedCount.add(1, ordering: .relaxed)
        }
    }

    private func now() -> Int64 { MonotonicClock.nanoseconds() }
}
