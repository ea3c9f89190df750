import CMHD

/// The C callback of the Swift libmicrohttpd hello-world, a `static let` so it is a plain C function pointer.
enum Trampolines {
    /// The JSON body every request gets, copied by MHD into each response (`MHD_RESPMEM_MUST_COPY`), as the
    /// service does with its rendered bodies.
    static let body: [UInt8] = Array(#"{"status":"ok"}"#.utf8)

    /// Answers on the second call of a request (the first one only carries the headers), like LinkServer's
    /// daemon, with a response created per request.
    static let access: MHD_AccessHandlerCallback = { _, connection, _, _, _, _, uploadDataSize, requestState in
        guard let requestState, let uploadDataSize else { return .NO }
        if requestState.pointee == nil {
            requestState.pointee = UnsafeMutableRawPointer(bitPattern: 1)
            return .YES
        }
        if uploadDataSize.pointee > 0 {
            uploadDataSize.pointee = 0
            return .YES
        }
        let response = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        MHD_add_response_header(response, "Content-Type", "application/json; charset=utf-8")
        return MHD_queue_response(connection, UInt32(MHD_HTTP_OK), response)
    }
}
