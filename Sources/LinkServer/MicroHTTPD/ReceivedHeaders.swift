#if canImport(Glibc)
    import Glibc
#endif

/// What one pass over a request's header list collects: the fields the service reads (``RequestHeaders``) and every
/// framing field (``RequestFraming``). It replaces a libmicrohttpd lookup per name, each of which walked the list.
struct ReceivedHeaders {
    private var fields = RequestHeaders()
    var framing = RequestFraming()
    /// `X-Forwarded-For`'s lines joined, appended to in place (a client may send hundreds of lines).
    private var forwardedFor: String?
    /// Only the first `fieldCount` fields of ``RequestHeaders/Field`` are read (the API listener needs fewer).
    let fieldCount: Int
    /// Where the field before ends with a byte that is not a line end: the next field's name must start there
    /// (lines ended by a bare LF), or something followed a NUL in that field's value.
    private var nextLineStart: UnsafeRawPointer?
    /// What the fields take of the connection's memory in libmicrohttpd: their bytes, and a list entry each.
    private(set) var memoryBytes = 0
    /// Where the last field's value ends in libmicrohttpd's read buffer (at its line's end).
    private var lastLineEnd: UnsafeRawPointer?
    /// Where the first field's name starts: the request line's end tells the head's line ends (CR LF or LF).
    private var firstNameStart: UnsafeRawPointer?

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
        memoryBytes &+= name.count &+ valueSize &+ ConnectionMemory.perField
        if name.count == 6, let value, name.assumingMemoryBound(to: UInt8.self).starts(caseInsensitiveWith: "cookie") {
            // libmicrohttpd parses a `Cookie` field into a copy of its value, with a list entry for each cookie.
            let cookies = UnsafeRawBufferPointer(start: value, count: valueSize).reduce(1) { $0 + ($1 == 0x3B ? 1 : 0) }
            memoryBytes &+= valueSize &+ 1 &+ cookies &* ConnectionMemory.perField
        }
        // A name the service reads is a token as it is spelt; only other names are checked byte by byte.
        let known = RequestHeaders.field(named: name)
        if !ReceivedHeaders.isInPlace(name: name, value: value) {
            framing.folded = true
        } else if framing.fault == nil, let value {
            checkLine(name: name, isKnown: known != nil, value: UnsafeRawPointer(value), valueSize: valueSize)
        }
        if known == .host {
            framing.hostFields += 1
            if framing.fault == nil, let value,
                !ReceivedHeaders.isHost(UnsafeRawBufferPointer(start: value, count: valueSize))
            {
                framing.fault = .host
            }
        }
        framing.add(
            name: name.assumingMemoryBound(to: UInt8.self),
            value: value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) }
                ?? "")
        guard let value, let field = known, field.rawValue < fieldCount else { return }
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

    /// Called once every field is added, with where the request line's version ends and where libmicrohttpd's head
    /// ends (`nil` when unknown): a field whose value was followed by something other than its line's end, and that
    /// no field came after, held a NUL; and a head that ends more than its last line's end and the empty line
    /// after the last field (or the request line) held a line libmicrohttpd took for the empty one: a line that
    /// starts with `:`, which it reads as a field with an empty name and then as the end of the head, so the lines
    /// after it were read as a second request.
    mutating func finish(requestLineEnd: UnsafeRawPointer?, headEnd: UnsafeRawPointer?) {
        if nextLineStart != nil && framing.fault == nil { framing.fault = .fieldValue }
        guard framing.fault == nil, !framing.folded, let headEnd, let requestLineEnd else { return }
        // The last line's end and the empty line: two line ends of the request line's kind (CR LF: 4 bytes, LF: 2; a
        // `:` line of one or two bytes ended by LF would otherwise pass for a CR LF).
        let rest = (lastLineEnd ?? requestLineEnd).distance(to: headEnd)
        let expected: Bool
        if let first = firstNameStart, case let lineEnd = requestLineEnd.distance(to: first),
            lineEnd == 1 || lineEnd == 2
        {
            expected = rest == 2 * lineEnd
        } else {
            expected = rest == 2 || rest == 4
        }
        if !expected { framing.fault = .fieldName }
    }

    /// Checks one field line in libmicrohttpd's read buffer (``isInPlace(name:value:)``): its name is a token, its
    /// value holds no CR, and nothing hides after a NUL in it. libmicrohttpd overwrites each line's CR and LF with
    /// NULs and ends the value at the first NUL, so the byte after the value's end is a NUL too (a CR LF line, or
    /// the empty line ending the head), or the next field's first byte (a line ended by a bare LF), or what followed
    /// a NUL the client put in the value.
    private mutating func checkLine(
        name: UnsafeRawBufferPointer, isKnown: Bool, value: UnsafeRawPointer, valueSize: Int
    ) {
        if let expected = nextLineStart {
            nextLineStart = nil
            if name.baseAddress != expected {
                framing.fault = .fieldValue
                return
            }
        }
        // An empty name is no token either (``finish(requestLineEnd:headEnd:)`` finds one libmicrohttpd ended on).
        if name.isEmpty
            || (!isKnown && !ReceivedHeaders.all(name.baseAddress!, name.count, ReceivedHeaders.isTokenByte))
        {
            framing.fault = .fieldName
            return
        }
        if valueSize > 0, memchr(value, 0x0D, valueSize) != nil {
            framing.fault = .fieldValue
            return
        }
        if value.load(fromByteOffset: valueSize + 1, as: UInt8.self) != 0 { nextLineStart = value + valueSize + 1 }
        lastLineEnd = value + valueSize
        if firstNameStart == nil { firstNameStart = name.baseAddress.map(UnsafeRawPointer.init) }
    }

    /// Whether `byte` is a token's (RFC 9110 §5.6.2 `tchar`: letters, digits, ``!#$%&'*+-.^_`|~``), by two masks
    /// written out (a `static let` set would be reached through a lazy initialiser's check on every call).
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0x03FF_6CFA_0000_0000
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        return byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte &- 64)) != 0
    }

    /// Whether `byte` may be in a `Host` value (RFC 9112 §3.2, RFC 3986 §3.2.2: a reg-name, an IPv4 address or an IP
    /// literal in brackets, then `:` and a port): letters, digits, ``-._~!$&'()*+,;=%:[]``.
    @inline(__always)
    static func isHostByte(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0x2FFF_7FF2_0000_0000
        let high: UInt64 = 0x47FF_FFFE_AFFF_FFFE
        return byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte &- 64)) != 0
    }

    /// Whether a `Host` value has only the bytes a host and port may have (its shape is read where it is used: the
    /// links listener's host check). Spaces and tabs after it are not part of it (RFC 9110 §5.5: libmicrohttpd keeps
    /// them in the value).
    static func isHost(_ value: UnsafeRawBufferPointer) -> Bool {
        guard let start = value.baseAddress else { return true }
        var count = value.count
        while count > 0, value[count - 1] == 0x20 || value[count - 1] == 0x09 { count -= 1 }
        return all(start, count, isHostByte)
    }

    /// Whether each of the `count` bytes at `start` passes `test` (a plain loop over a pointer: the buffer's
    /// iterator checked bounds on every byte).
    @inline(__always)
    static func all(_ start: UnsafeRawPointer, _ count: Int, _ test: (UInt8) -> Bool) -> Bool {
        let bytes = start.assumingMemoryBound(to: UInt8.self)
        var index = 0
        while index < count {
            if !test(bytes[index]) { return false }
            index &+= 1
        }
        return true
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
