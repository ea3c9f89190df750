import CMicroHTTPD
import Synchronization

/// Per-request state, created by the URI-log callback and released by the request-completed callback.
///
/// `@unchecked Sendable`: the mutable request fields (`method`, `body`, `phase`…) are only touched by the one MHD
/// worker thread that owns the connection (libmicrohttpd never serves a connection from two threads at once);
/// the only state reached from other threads — the deferred response — sits behind `pending`'s `Mutex`.
final class ConnectionState: @unchecked Sendable {
    enum Phase {
        /// Headers seen, body not yet complete.
        case receiving
        /// Dispatched, connection suspended, waiting for ``PendingReply/complete(_:)``.
        case suspended
        /// A response was queued.
        case answered
    }

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
    /// Set once the connection was suspended; read again on the resumed access-handler call.
    let pending = Mutex<PendingResponse?>(nil)

    /// The body received, moved out (the state keeps none).
    func takeBody() -> [UInt8] {
        if body.isEmpty { return [] }
        defer { body = [] }
        return body
    }

    init(rawTarget: String, rawTargetBytes: Int, watched: WatchedConnection?) {
        self.rawTarget = rawTarget
        self.rawTargetBytes = rawTargetBytes
        self.watched = watched
        self.startedAt = MonotonicClock.nanoseconds()
    }
}

/// Completes a suspended request from any thread: stores the response, then resumes the MHD connection.
///
/// `@unchecked Sendable`: `connection` is an opaque libmicrohttpd handle that stays valid while the connection is
/// suspended (MHD cannot close a suspended connection); `MHD_resume_connection` is documented thread-safe. The
/// `completed` flag under the state's mutex guarantees a single resume.
final class SuspendedReply: PendingReply, @unchecked Sendable {
    private let connection: OpaquePointer
    private let state: ConnectionState
    private let completed = Mutex(false)
    private let onResume: @Sendable () -> Void

    init(connection: OpaquePointer, state: ConnectionState, onResume: @escaping @Sendable () -> Void) {
        self.connection = connection
        self.state = state
        self.onResume = onResume
    }

    @discardableResult
    func complete(_ response: Response) -> Bool {
        finish(.ready(response))
    }

    @discardableResult
    func complete(building build: @escaping @Sendable () -> Response) -> Bool {
        finish(.deferred(build))
    }

    private func finish(_ response: PendingResponse) -> Bool {
        let first = completed.withLock { done in
            if done { return false }
            done = true
            return true
        }
        guard first else { return false }
        state.pending.withLock { $0 = response }
        onResume()
        MHD_resume_connection(connection)
        return true
    }
}
