import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// The C callbacks handed to libmicrohttpd. Each recovers the ``Daemon`` from its `void *cls` (passed unretained:
/// the daemon outlives the MHD daemon it starts) and forwards to it; the per-request ones borrow it
/// (`_withUnsafeGuaranteedRef`) rather than retain it, since every worker thread would otherwise write the daemon's
/// reference count several times per request. Kept as `static let`s of an enum: a closure written inside
/// `main.swift` or `@main` would be isolated to the main actor and trap on MHD's threads.
enum Trampolines {
    /// `MHD_AcceptPolicyCallback`: whether a connection just accepted may stay open (not while the daemon stops).
    static let acceptPolicy: MHD_AcceptPolicyCallback = { cls, _, _ in
        guard let cls else { return .NO }
        return Unmanaged<Daemon>.fromOpaque(cls).takeUnretainedValue().admitsConnections() ? .YES : .NO
    }

    /// `MHD_AccessHandlerCallback`: called for the headers, for each chunk of body, and once after the body.
    static let accessHandler: MHD_AccessHandlerCallback = {
        cls, connection, url, method, version, uploadData, uploadDataSize, requestState in
        guard let cls, let connection, let method, let uploadDataSize, let requestState else { return .NO }
        return Unmanaged<Daemon>.fromOpaque(cls)._withUnsafeGuaranteedRef {
            $0.handleAccess(
                connection: connection, method: method, line: RequestLine(url: url, version: version),
                uploadData: uploadData, uploadDataSize: uploadDataSize, requestState: requestState)
        }
    }

    /// `MHD_RequestCompletedCallback`: frees the per-request state made by ``uriLog``.
    static let requestCompleted: MHD_RequestCompletedCallback = { cls, _, requestState, termination in
        guard let cls, let requestState, let raw = requestState.pointee else { return }
        requestState.pointee = nil
        let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeRetainedValue()
        Unmanaged<Daemon>.fromOpaque(cls)._withUnsafeGuaranteedRef {
            $0.requestCompleted(state, termination: termination)
        }
    }

    /// `MHD_OPTION_EXTERNAL_LOGGER` (through `cmhd_format_log`, which formats the line): one of libmicrohttpd's log
    /// lines, for the daemon's logger.
    static let log: cmhd_log_callback = { cls, message in
        guard let cls, let message else { return }
        Unmanaged<Daemon>.fromOpaque(cls).takeUnretainedValue().log(String(cString: message))
    }

    /// `MHD_OPTION_URI_LOG_CALLBACK`: sees the raw request target before MHD unescapes it, and creates the
    /// per-request state that MHD then passes to every other callback of the request.
    static let uriLog: cmhd_uri_log_callback = { cls, uri, connection in
        guard let cls else { return nil }
        let watched = connection.flatMap { cmhd_connection_socket_context($0) }.map {
            Unmanaged<WatchedConnection>.fromOpaque($0).takeUnretainedValue()
        }
        var target = ""
        var bytes = 0
        if let uri {
            bytes = strlen(uri)
            target = Trampolines.target(UnsafeRawBufferPointer(start: uri, count: bytes))
            // The service parses the query from its own copy; MHD's split of it would only fill the pool.
            cmhd_hide_query_from_argument_parser(uri)
        }
        let state = ConnectionState(connection: connection, rawTarget: target, rawTargetBytes: bytes, watched: watched)
        Unmanaged<Daemon>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.requestStarted() }
        return Unmanaged.passRetained(state).toOpaque()
    }

    /// The request target as text. Raw bytes that are not UTF-8 are not repaired (a repair, U+FFFD, would serve
    /// `/users/\xFF` and `/users/\xFE` as one location): every byte from 0x80 is written percent-encoded instead, so
    /// the target is refused as a malformed escape would be (400 `invalid_url`, a 400 page for a click). Raw UTF-8
    /// stays as it is (API.md §2: raw non-ASCII input is accepted).
    static func target(_ bytes: UnsafeRawBufferPointer) -> String {
        let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
        // An ASCII target (nearly every one) is valid as it is: `String(validating:)` is generic and looks its
        // types' metadata up at run time (~900 instructions per request).
        if !utf8.contains(where: { $0 >= 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
        if let text = String(validating: utf8, as: UTF8.self) { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(utf8.count * 3)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in utf8 {
            if byte < 0x80 {
                escaped.append(byte)
            } else {
                escaped.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// `MHD_NotifyConnectionCallback`: a connection was accepted or is about to be closed. The connection's
    /// ``WatchedConnection`` lives in MHD's socket context (retained) from one to the other.
    static let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        guard let cls, let connection, let socketContext else { return }
        let daemon = Unmanaged<Daemon>.fromOpaque(cls).takeUnretainedValue()
        switch code {
        case .CONNECTION_NOTIFY_STARTED:
            let watched = daemon.deadlines.opened(socket: cmhd_connection_fd(connection))
            socketContext.pointee = Unmanaged.passRetained(watched).toOpaque()
        case .CONNECTION_NOTIFY_CLOSED:
            guard let raw = socketContext.pointee else { return }
            socketContext.pointee = nil
            daemon.deadlines.closed(Unmanaged<WatchedConnection>.fromOpaque(raw).takeRetainedValue())
        default:
            return
        }
    }

    /// `MHD_KeyValueIteratorN` over a request's headers: adds each to the ``ReceivedHeaders`` that `cls` points to.
    static let requestHeader: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        cls.assumingMemoryBound(to: ReceivedHeaders.self).pointee.add(
            name: UnsafeRawBufferPointer(start: key, count: keySize), value: value, valueSize: valueSize)
        return .YES
    }
}
