import CMicroHTTPD
import Synchronization

/// Per-request state, created by the URI-log callback and released by the request-completed callback; while the
/// connection is suspended it is also the request's ``PendingReply`` (and a long-poll's waiter), so a waiting poll
/// costs no object of its own.
///
/// `@unchecked Sendable`: the mutable request fields (`method`, `body`, `phase`…) are only touched by the one MHD
/// worker thread that owns the connection (libmicrohttpd never serves a connection from two threads at once);
/// the only state reached from other threads — the pending response — sits behind `pending`'s `Mutex`, and
/// `connection` is an opaque libmicrohttpd handle that stays valid while the connection is suspended (MHD cannot
/// close a suspended connection); `MHD_resume_connection` is documented thread-safe.
final class ConnectionState: PendingReply, @unchecked Sendable {
    enum Phase {
        /// Headers seen, body not yet complete.
        case receiving
        /// Dispatched, connection suspended, waiting for ``PendingReply/complete(_:)``.
        case suspended
        /// A response was queued.
        case answered
    }

    /// The request's connection (`nil` only if libmicrohttpd gave none), resumed when the reply is completed.
    private let connection: OpaquePointer?
    let rawTarget: String
    /// Bytes of the target up to its first NUL, as libmicrohttpd handed it over (``rawTarget`` may differ: invalid
    /// UTF-8 is repaired when it is copied).
    let rawTargetBytes: Int
    /// The connection's deadlines (`nil` only if libmicrohttpd gave no socket context).
    let watched: WatchedConnection?
    /// When the request began, in ``MonotonicClock`` nanoseconds (not a `ContinuousClock.Instant`: see there).
    let startedAt: Int64
    var phase: Phase = .receiving
    var body: [UInt8] = []
    /// Body bytes thrown away after the body outgrew the limit.
    var discardedBytes = 0
    /// The request's headers while its body arrives; the handler's request takes them.
    var headers: RequestHeaders?
    /// The client's address (the links listener only).
    var client: ClientAddress?
    /// The request's method and id, for the request made at dispatch, the answer's `X-Request-Id` and the
    /// completion's summary. `method` is nil until the head was read (``Daemon`` tells its first access-handler call
    /// by it).
    var method: String?
    var requestID: String?
    /// What served the request; `nil` when the daemon answered it before any handler (``Daemon/unhandled``).
    var endpoint: EndpointLabel?
    var status: Int = 0
    /// What the request's head takes of the connection's memory (``ConnectionMemory``).
    var headMemory = 0
    /// The target served when ``rawTarget`` is in absolute form (``RequestTarget``): its path and query.
    var originTarget: String?
    /// Set once by whichever thread completes the suspended request; taken by the resumed access-handler call.
    let pending = Mutex(Completion())

    struct Completion {
        var done = false
        var response: PendingResponse?
    }

    /// The body received, moved out (the state keeps none).
    func takeBody() -> [UInt8] {
        if body.isEmpty { return [] }
        defer { body = [] }
        return body
    }

    init(connection: OpaquePointer?, rawTarget: String, rawTargetBytes: Int, watched: WatchedConnection?) {
        self.connection = connection
        self.rawTarget = rawTarget
        self.rawTargetBytes = rawTargetBytes
        self.watched = watched
        self.startedAt = MonotonicClock.nanoseconds()
    }
}

// MARK: - The suspended request's reply (any thread)

extension ConnectionState {
    @discardableResult
    func complete(_ response: Response) -> Bool {
        finish(.ready(response))
    }

    func answered(_ answer: PollAnswer) {
        _ = finish(.poll(answer))
    }

    /// Stores the response and resumes the connection, once.
    private func finish(_ response: PendingResponse) -> Bool {
        let first = pending.withLock { completion in
            if completion.done { return false }
            completion.done = true
            completion.response = response
            return true
        }
        guard first, let connection else { return false }
        // libmicrohttpd marks the connection resumed, unlocks, then wakes its threads: a daemon thread may serve the
        // connection before this call returns, and a stop would then free the daemon it still writes to.
        ConnectionState.resumesInFlight.add(1, ordering: .acquiringAndReleasing)
        MHD_resume_connection(connection)
        ConnectionState.resumesInFlight.subtract(1, ordering: .acquiringAndReleasing)
        return true
    }

    /// Calls of `MHD_resume_connection` not yet returned, in every daemon of the process (``Daemon`` stops once
    /// there are none).
    static let resumesInFlight = Atomic<Int>(0)
}
