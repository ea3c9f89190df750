import CMicroHTTPD

/// The C callbacks handed to libmicrohttpd. Each recovers the ``Daemon`` from its `void *cls` (passed unretained:
/// the daemon outlives the MHD daemon it starts) and forwards to it. Kept as `static let`s of an enum: a closure
/// written inside `main.swift` or `@main` would be isolated to the main actor and trap on MHD's threads.
enum Trampolines {
    /// `MHD_AccessHandlerCallback`: called for the headers, for each chunk of body, and once after the body.
    static let accessHandler: MHD_AccessHandlerCallback = {
        cls, connection, _, method, _, uploadData, uploadDataSize, requestState in
        guard let cls, let connection, let method, let uploadDataSize, let requestState else { return .NO }
        let daemon = Unmanaged<Daemon>.fromOpaque(cls).takeUnretainedValue()
        return daemon.handleAccess(
            connection: connection, method: method, uploadData: uploadData, uploadDataSize: uploadDataSize,
            requestState: requestState)
    }

    /// `MHD_RequestCompletedCallback`: frees the per-request state made by ``uriLog``.
    static let requestCompleted: MHD_RequestCompletedCallback = { cls, _, requestState, termination in
        guard let cls, let requestState, let raw = requestState.pointee else { return }
        requestState.pointee = nil
        let daemon = Unmanaged<Daemon>.fromOpaque(cls).takeUnretainedValue()
        let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeRetainedValue()
        daemon.requestCompleted(state, termination: termination)
    }

    /// `MHD_OPTION_URI_LOG_CALLBACK`: sees the raw request target before MHD unescapes it, and creates the
    /// per-request state that MHD then passes to every other callback of the request.
    static let uriLog: cmhd_uri_log_callback = { cls, uri, _ in
        guard let cls else { return nil }
        let daemon = Unmanaged<Daemon>.fromOpaque(cls).takeUnretainedValue()
        let state = ConnectionState(rawTarget: uri.map { String(cString: $0) } ?? "")
        daemon.requestStarted()
        return Unmanaged.passRetained(state).toOpaque()
    }
}
