/// What one pass over a request's header list collects: the fields the service reads (``RequestHeaders``) and every
/// framing field (``RequestFraming``). It replaces a libmicrohttpd lookup per name, each of which walked the list.
struct ReceivedHeaders {
    private var fields = RequestHeaders()
    var framing = RequestFraming()
    /// `X-Forwarded-For`'s lines joined, appended to in place (a client may send hundreds of lines).
    private var forwardedFor: String?
    /// Only the first `fieldCount` fields of ``RequestHeaders/Field`` are read (the API listener needs fewer).
    let fieldCount: Int

    init(fieldCount: Int) {
        self.fieldCount = fieldCount
    }

    /// The fields read (taken: nothing is copied).
    consuming func takeHeaders() -> RequestHeaders {
        var headers = fields
        if let forwardedFor { headers[.forwardedFor] = forwardedFor }
        return headers
    }

    /// Records one header as libmicrohttpd stores it (`value` NUL-terminated, `valueSize` bytes before the NUL). Of
    /// a name sent twice the first value is read, as `MHD_lookup_connection_value` does, except `X-Forwarded-For`
    /// and `Accept`, whose lines are one list (RFC 9110 §5.3): a proxy may add its own line after the client's.
    mutating func add(name: UnsafeRawBufferPointer, value: UnsafePointer<CChar>?, valueSize: Int) {
        if !ReceivedHeaders.isInPlace(name: name, value: value) { framing.folded = true }
        framing.add(
            name: name.assumingMemoryBound(to: UInt8.self),
            value: value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) }
                ?? "")
        guard let value, let field = RequestHeaders.field(named: name), field.rawValue < fieldCount else { return }
        if field == .forwardedFor {
            let line = UnsafeRawBufferPointer(start: value, count: valueSize)
            if forwardedFor == nil {
                forwardedFor = String(decoding: line, as: UTF8.self)
            } else {
                forwardedFor?.append(",")
                forwardedFor?.append(String(decoding: line, as: UTF8.self))
            }
        } else if let first = fields[field] {
            // `Accept`'s lines are one list too; a second line is rare, so it is joined as it comes.
            if field == .accept { fields[field] = first + "," + String(cString: value) }
        } else {
            fields[field] = String(cString: value)
        }
    }

    /// Whether a field is where libmicrohttpd 0.9.75 parses an unfolded line: in the read buffer, its name, the `:`
    /// (overwritten with a NUL), spaces or tabs, then its value. A folded line's continuation is joined to the
    /// *name*, which libmicrohttpd copies elsewhere in the connection's pool to grow it, so the value no longer
    /// follows it (the only trace of the fold it leaves in what the service can read).
    static func isInPlace(name: UnsafeRawBufferPointer, value: UnsafePointer<CChar>?) -> Bool {
        guard let value, let start = name.baseAddress else { return true }
        let end = start + name.count
        let gap = UnsafeRawPointer(value) - end
        // The `:` and the spaces or tabs before the value, within one line of the connection's memory (a name copied
        // to grow it lies after the read buffer, so the value comes before it).
        guard gap >= 1, gap <= 1 << 16 else { return false }
        guard end.load(as: UInt8.self) == 0 else { return false }
        for offset in 1..<gap {
            let byte = end.load(fromByteOffset: offset, as: UInt8.self)
            if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") { return false }
        }
        return true
    }
}
