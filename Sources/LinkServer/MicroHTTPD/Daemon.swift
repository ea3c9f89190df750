import CMicroHTTPD
import LinkCore
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The libmicrohttpd daemon: an internal pool of epoll threads with suspend/resume, feeding complete requests to a
/// ``RequestHandler``. The only type besides the trampolines that touches MHD pointers.
///
/// `@unchecked Sendable`: `mhd` is written once by `start()` before any callback can run and cleared by `stop()`
/// after MHD's threads have been joined; everything else is immutable or atomic.
final class Daemon: @unchecked Sendable {
    let settings: DaemonSettings
    private let handler: any RequestHandler
    /// The head and body timeouts of every open connection.
    let deadlines: ConnectionDeadlines
    private var mhd: OpaquePointer?
    private let requestsInFlight = Atomic<Int>(0)
    private let suspendedCount = Atomic<Int>(0)
    /// Set by ``beginDraining()``: from then on the accept policy closes every new connection unanswered.
    private let draining = Atomic<Bool>(false)
    /// The refusals decided on a request's head, and request ids.
    private let admission: RequestAdmission
    private let mhdLog = BudgetedLog()
    /// The label of requests answered before any handler saw them (refused heads, too large bodies): `-`, or the
    /// handler's own (``RequestHandler/refusalLabel``).
    let unhandled: EndpointLabel
    /// libmicrohttpd's own log lines go here (through ``logSink``).
    let logger: Logger
    /// Handed to MHD as its logger's context; allocated once, freed with the daemon.
    private let logSink: UnsafeMutablePointer<cmhd_logger>

    /// The bound port, valid after ``start()`` (the chosen one when the settings asked for port 0).
    private(set) var port: UInt16 = 0

    init(settings: DaemonSettings, handler: any RequestHandler, logger: Logger) {
        self.settings = settings
        self.handler = handler
        self.unhandled = handler.refusalLabel
        self.logger = logger
        self.admission = RequestAdmission(maxURIBytes: settings.maxURIBytes, maxBodyBytes: settings.maxBodyBytes)
        self.deadlines = ConnectionDeadlines(headerTimeout: settings.headerTimeout, bodyTimeout: settings.bodyTimeout)
        logSink = .allocate(capacity: 1)
        logSink.initialize(to: cmhd_logger(callback: Trampolines.log, cls: nil))
    }

    deinit {
        logSink.deallocate()
    }

    /// Requests whose head has been read and which have not completed yet.
    var requestsInProgress: Int { requestsInFlight.load(ordering: .relaxed) }

    /// Connections currently suspended: long-polls, requests waiting on a shared store, emits waiting for their commit.
    var suspendedConnections: Int { suspendedCount.load(ordering: .relaxed) }

    /// Starts listening. Throws ``DaemonError`` when the address is invalid or cannot be bound.
    func start() throws {
        precondition(mhd == nil, "daemon already started")
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        let address = try BindAddress(host: settings.host, port: settings.port)
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let me = Unmanaged.passUnretained(self).toOpaque()
        logSink.pointee.cls = me
        errno = 0
        let started: OpaquePointer? = address.withSockaddr { sockaddr in
            var options = cmhd_daemon_settings(
                flags: flags,
                port: settings.port,
                bind_address: sockaddr,
                thread_pool_size: UInt32(max(1, settings.threads)),
                connection_limit: UInt32(settings.connectionLimit),
                connection_timeout_seconds: UInt32(settings.connectionTimeout),
                connection_memory_limit: settings.connectionMemoryLimit,
                listen_backlog: UInt32(settings.listenBacklog),
                per_ip_connection_limit: UInt32(settings.connectionLimitPerAddress),
                logger: logSink)
            return cmhd_start_daemon(
                &options, Trampolines.acceptPolicy, me, Trampolines.accessHandler, me, Trampolines.requestCompleted, me,
                Trampolines.uriLog, me,
                Trampolines.connectionNotified, me)
        }
        guard let started else {
            throw DaemonError.startFailed(
                host: settings.host, port: settings.port, setting: settings.portSetting, errno: errno)
        }
        mhd = started
        port = cmhd_bound_port(started)
        deadlines.start()
    }

    /// Stops serving new connections, waits up to `grace` for requests in flight, then stops the threads and
    /// closes everything. Suspended replies (polls the application answers first, store calls on workers) are waited
    /// for, up to ``suspendedWaitLimit``.
    ///
    /// New connections are closed unanswered by the accept policy (accepted and closed at once), not refused by
    /// `MHD_quiesce_daemon`: in libmicrohttpd 0.9.75 with epoll threads, quiescing races the worker threads, which
    /// take the listening socket out of their epoll sets themselves, and the loser of that race aborts the
    /// process ("Failed to remove listen FD from epoll set", seen in CI; docs/reliability.md).
    func stop(grace: Duration = .seconds(5)) {
        stop(waitingUntil: ContinuousClock.now + grace)
    }

    /// ``stop(grace:)`` with the wait for requests in flight ending at `deadline`, or as soon as `waitEnded` says so
    /// (an operator's second signal).
    func stop(waitingUntil deadline: ContinuousClock.Instant, unless waitEnded: () -> Bool = { false }) {
        guard let mhd else { return }
        beginDraining()
        while requestsInFlight.load(ordering: .acquiring) > 0, ContinuousClock.now < deadline, !waitEnded() {
            usleep(10_000)
        }
        // libmicrohttpd 0.9.75 aborts the process when stopped with a connection suspended: a reply being worked
        // out off its threads (a shared store's call, bounded by the store's own limits) is waited for, whatever
        // the grace or a further signal said. One still out past that bound leaves the daemon running rather than
        // abort the process that is stopping.
        let suspendedBound = ContinuousClock.now + Daemon.suspendedWaitLimit
        while suspendedCount.load(ordering: .acquiring) > 0, ContinuousClock.now < suspendedBound {
            usleep(10_000)
        }
        let suspended = suspendedCount.load(ordering: .acquiring)
        guard suspended == 0 else {
            logger.error(
                "replies still being worked out; libmicrohttpd is not stopped (it would abort the process)",
                metadata: ["requests": "\(suspended)"])
            return
        }
        // The thread that resumed the last of them may still be inside `MHD_resume_connection`, about to wake the
        // daemon's threads through a channel that stopping closes.
        while ConnectionState.resumesInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        MHD_stop_daemon(mhd)
        self.mhd = nil
        deadlines.stop()
    }

    /// The longest a stop waits for suspended replies: above a shared store's call (10 s) and the wait for a commit
    /// under way (10 s).
    static let suspendedWaitLimit = Duration.seconds(30)

    /// From now on every new connection is closed unanswered; requests already begun are served.
    func beginDraining() {
        draining.store(true, ordering: .releasing)
    }

    /// Whether a new connection may be served: not once ``beginDraining()`` or ``stop(grace:)`` has begun.
    func admitsConnections() -> Bool { !draining.load(ordering: .acquiring) }

    // MARK: - Callbacks (MHD worker threads)

    func requestStarted() {
        requestsInFlight.add(1, ordering: .relaxed)
    }

    func requestCompleted(_ state: ConnectionState, termination: MHD_RequestTerminationCode) {
        requestsInFlight.subtract(1, ordering: .relaxed)
        // Resumed and closed without being served again (the client went away while it waited).
        if state.phase == .suspended { suspendedCount.subtract(1, ordering: .relaxed) }
        // One clock read for both (each is a call into the vDSO).
        let now = MonotonicClock.nanoseconds()
        // A kept-alive connection now waits for its next request, whose head is due in time like the first.
        if let watched = state.watched { deadlines.awaitHead(watched, now: now) }
        guard let method = state.method, let id = state.requestID else { return }
        handler.completed(
            RequestSummary(
                method: method, target: state.rawTarget, endpoint: state.endpoint ?? unhandled, status: state.status,
                duration: .nanoseconds(now - state.startedAt), requestID: id,
                answered: termination == .REQUEST_TERMINATED_COMPLETED_OK))
    }

    func handleAccess(
        connection: OpaquePointer, method: UnsafePointer<CChar>, line: RequestLine, uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>, requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let raw = requestState.pointee else { return .NO }
        let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeUnretainedValue()
        switch state.phase {
        case .receiving:
            guard state.method != nil else {
                return begin(state, connection: connection, method: method, line: line)
            }
            let size = uploadDataSize.pointee
            if size > 0 {
                uploadDataSize.pointee = 0
                // MHD 0.9.75 refuses a response while a body is arriving, so an undeclared (chunked) body that
                // outgrows the limit is discarded to its end and answered 413 then; one far past the limit is cut.
                if state.discardedBytes > 0 || state.body.count + size > settings.maxBodyBytes {
                    state.discardedBytes += size
                    state.body = []
                    return state.discardedBytes > 16 * settings.maxBodyBytes ? .NO : .YES
                }
                if let uploadData {
                    uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                        state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
                    }
                }
                return .YES
            }
            if state.discardedBytes > 0 {
                return queue(
                    handler.dressRefusal(admission.tooLarge(), target: state.rawTarget), on: connection, state: state)
            }
            if let watched = state.watched { deadlines.clear(watched) }
            guard let method = state.method, let id = state.requestID else { return .NO }
            // Made from the parts kept since the head; the headers and the body move into it.
            let request = Request(
                method: method, target: state.originTarget ?? state.rawTarget,
                headers: state.headers.take() ?? RequestHeaders(),
                body: state.takeBody(), id: id, client: state.client)
            let (endpoint, reply) = handler.handle(request)
            state.endpoint = endpoint
            switch reply {
            case .now(let response):
                return queue(response, on: connection, state: state)
            case .later(let start):
                state.phase = .suspended
                suspendedCount.add(1, ordering: .relaxed)
                MHD_suspend_connection(connection)
                // The request's state is its pending reply: completing it resumes the connection.
                start(state)
                return .YES
            }
        case .suspended:
            suspendedCount.subtract(1, ordering: .relaxed)
            let response = state.pending.withLock { $0.response.take() }?.response
            return queue(
                response ?? ErrorEnvelope.response(for: ErrorEnvelope.internalError), on: connection, state: state)
        case .answered:
            uploadDataSize.pointee = 0
            return .YES
        }
    }

    /// The first call for a request: headers are complete, no body yet. Early answers (framing, 413, 414) are
    /// queued now (MHD then closes the connection instead of reading the rest); everything else waits for the next
    /// call, because queueing on the first call makes MHD answer `Connection: close`.
    private func begin(
        _ state: ConnectionState, connection: OpaquePointer, method: UnsafePointer<CChar>, line: RequestLine
    ) -> MHD_Result {
        // The click headers only where clicks are served.
        var received = ReceivedHeaders(
            fieldCount: settings.readsClientAddress ? RequestHeaders.names.count : RequestHeaders.apiNames.count)
        _ = withUnsafeMutablePointer(to: &received) {
            MHD_get_connection_values_n(connection, .HEADER_KIND, Trampolines.requestHeader, $0)
        }
        let headSize = cmhd_request_header_size(connection)
        received.finish(
            requestLineEnd: line.version.map { UnsafeRawPointer($0) + strlen($0) },
            headEnd: headSize > 0 ? UnsafeRawPointer(method) + headSize : nil)
        if received.framing.hostFields == 0 { received.framing.hostRequired = line.requiresHost }
        let framing = received.framing
        let headers = received.takeHeaders()
        let id = admission.requestID(from: headers[.requestID])
        var client: ClientAddress?
        if settings.readsClientAddress {
            var address: (UInt64, UInt64) = (0, 0)
            let length = withUnsafeMutableBytes(of: &address) {
                cmhd_client_address_bytes(connection, $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            client = ClientAddress(length: Int(length), bytes: address)
        }
        let methodName = RequestLine.methodName(method)
        state.method = methodName
        state.requestID = id
        state.headMemory = received.memoryBytes + state.rawTargetBytes + ConnectionMemory.requestLine
        if let watched = state.watched { deadlines.clear(watched) }
        let refusal = admission.refusal(
            target: state.rawTarget, targetComplete: line.targetSpans(state.rawTargetBytes), framing: framing,
            headers: headers)
        // Kept last, so the headers move into the state.
        state.headers = headers
        state.client = client
        if let refusal {
            return queue(handler.dressRefusal(refusal, target: state.rawTarget), on: connection, state: state)
        }
        // Nearly every target is a path; the other forms are read apart.
        if line.url?.pointee != CChar(UInt8(ascii: "/")), let answer = otherTargetForm(state, method: methodName) {
            return queue(answer, on: connection, state: state)
        }
        if framing.expectsBody, let watched = state.watched { deadlines.awaitBody(watched) }
        return .YES
    }

    /// A target that is not a path (RFC 9112 §3.2, ``RequestTarget``): an absolute-form one is served as its path
    /// with its authority in place of `Host`; the answer to `OPTIONS *` or to a malformed target, or `nil`.
    private func otherTargetForm(_ state: ConnectionState, method: String) -> Response? {
        switch RequestTarget(state.rawTarget, method: method) {
        case .origin:
            return nil
        case .absolute(let path, let authority):
            state.originTarget = path
            state.headers?[.host] = authority
            return nil
        case .asterisk:
            let methods = settings.readsClientAddress ? "GET, HEAD, POST" : "GET, HEAD, POST, PUT, PATCH, DELETE"
            return Response(status: 204, headers: [("Allow", methods)])
        case .invalid:
            return ErrorEnvelope.response(for: .malformedTarget, headers: [("Connection", "close")])
        }
    }

    /// One of libmicrohttpd's own log lines (bind failures, protocol errors it answered itself, …). A client that
    /// sends malformed requests or opens connections past its limit makes one each, so at most
    /// ``LogBudget/linesPerWindow`` are written per 10 s; the next line after a window says how many were left out.
    func log(_ message: String) {
        var line = Substring(message)
        while line.last == "\n" { line.removeLast() }
        // Before the daemon is bound (a failed bind, say), the port it was given.
        var metadata: Logger.Metadata = ["source": "libmicrohttpd", "port": "\(port != 0 ? port : settings.port)"]
        if let setting = Daemon.setting(behind: line) { metadata["setting"] = "\(setting)" }
        mhdLog.log(logger, .notice, "\(line)", metadata: metadata)
    }

    /// The setting behind a refusal libmicrohttpd words in its own terms (its option names, not the service's).
    static func setting(behind line: Substring) -> String? {
        if line.contains("reached connection limit") {
            // The same words for all connections and for one address's.
            return "server.connectionLimit (all connections) or server.connectionLimitPerAddress (one address's)"
        }
        if line.contains("resource limit") {
            return "the open-file limit (ulimit -n, LimitNOFILE), or a lower server.connectionLimit"
        }
        return nil
    }

    /// A body of at least this many bytes is lent to libmicrohttpd rather than copied (``mhdResponse(sending:)``).
    static let lentBodySize = 32 << 10

    /// libmicrohttpd's response for `body`. A small body is copied (the copy costs less than keeping the array
    /// alive until the answer is sent: +350 instructions a `/healthz`, measured). A large one is lent: the array is
    /// held until libmicrohttpd frees the response, so a large answer kept for many clients (``KeptList``: the
    /// list of everything stored) is one array that all of them are sent from, however slowly they read.
    static func mhdResponse(sending body: [UInt8]) -> OpaquePointer? {
        guard body.count >= lentBodySize else {
            return body.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        }
        let holder = Unmanaged.passRetained(LentBody(body))
        // The holder's array is a constant it keeps alive, so its storage stays where it is until the release.
        let response = holder.takeUnretainedValue().bytes.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer_with_free_callback_cls(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                { Unmanaged<LentBody>.fromOpaque($0!).release() }, holder.toOpaque())
        }
        // A response that could not be made never calls back.
        if response == nil { holder.release() }
        return response
    }

    /// Queues `response`. With `checkingFit`, an answer whose head would not fit beside the request's in the
    /// connection's memory, which libmicrohttpd would never send (a redirect repeating a long link after a head full
    /// of cookies), is replaced by a short one that says why; that one is queued as it is, whether it fits or not.
    /// When even its head would not fit (a request head within ~100 bytes of libmicrohttpd's own 431), it goes with
    /// no field but `Connection` (`identified: false`: no `X-Request-Id` either), ~70 bytes less: its body is not
    /// in the connection's memory.
    private func queue(
        _ response: Response, on connection: OpaquePointer, state: ConnectionState, checkingFit: Bool = true,
        identified: Bool = true
    ) -> MHD_Result {
        let fits = { (answer: Response) in
            ConnectionMemory.answerFits(
                answer, requestBytes: state.headMemory, requestID: state.requestID,
                limit: self.settings.connectionMemoryLimit)
        }
        if checkingFit, !fits(response) {
            let short = handler.answerTooLarge(requestBytes: state.headMemory)
            if fits(short) { return queue(short, on: connection, state: state, checkingFit: false) }
            let bare = Response(status: short.status, headers: [("Connection", "close")], body: short.body)
            return queue(bare, on: connection, state: state, checkingFit: false, identified: false)
        }
        state.phase = .answered
        state.status = response.status
        guard let mhdResponse = Daemon.mhdResponse(sending: response.body) else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        // `withCString` hands native strings over without copying them into temporary C arrays. libmicrohttpd
        // refuses a value with a CR or LF: then the answer is not sent without it (a redirect without `Location`).
        var added = true
        for (name, value) in response.headers {
            name.withCString { name in
                value.withCString { added = MHD_add_response_header(mhdResponse, name, $0) == .YES && added }
            }
        }
        if let location = response.location {
            location.withCString { added = MHD_add_response_header(mhdResponse, "Location", $0) == .YES && added }
        }
        if identified, let id = state.requestID {
            id.withCString { _ = MHD_add_response_header(mhdResponse, "X-Request-Id", $0) }
        }
        // Stopping: a kept-alive connection ends with this answer (RFC 9112 §9.6), so its client sends its next
        // request on a new connection (elsewhere) and the stop is not held to its grace by a client that keeps
        // sending, only to have its last request cut unanswered when the grace ends.
        if draining.load(ordering: .relaxed), !response.headers.contains(where: { $0.0 == "Connection" }) {
            _ = MHD_add_response_header(mhdResponse, "Connection", "close")
        }
        guard added else {
            logger.error(
                "an answer's header was refused by libmicrohttpd; answered 500 instead",
                metadata: ["request.id": "\(state.requestID ?? "")", "status": "\(response.status)"])
            return queue(
                ErrorEnvelope.response(for: ErrorEnvelope.internalError), on: connection, state: state,
                checkingFit: false)
        }
        return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    }
}

/// A body lent to libmicrohttpd (``Daemon/mhdResponse(sending:)``), held until it frees the response.
private final class LentBody: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
