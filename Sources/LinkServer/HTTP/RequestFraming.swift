import LinkCore

/// How a request's body is delimited (RFC 9112 §6.3), judged from every `Content-Length` and `Transfer-Encoding`
/// field the client sent, before any body byte is read.
///
/// libmicrohttpd 0.9.75 reads only the first field of each name, lets `Transfer-Encoding` win over
/// `Content-Length` without a word, and reads a body of any coding but `chunked` until the client closes. A proxy in
/// front that frames the same bytes another way then sees a different request boundary (request smuggling), and an
/// unknown coding hangs until the idle timeout. So only one unambiguous framing is accepted; anything else is
/// refused, and the daemon closes the connection after the answer so that no byte after it is read as a request.
struct RequestFraming: Sendable, Equatable {
    /// Every `Content-Length` value, in order, as libmicrohttpd stores it.
    var contentLengths: [String] = []
    /// Every `Transfer-Encoding` value, in order, as libmicrohttpd stores it.
    var transferEncodings: [String] = []
    /// Whether a header line was folded (obs-fold, RFC 9112 §5.2), which libmicrohttpd 0.9.75 joins to the field's
    /// name: every field read is then suspect (`Content-: 1` + ` Length` reads as `Content-Length: 1`).
    var folded = false
    /// The first way a field line was malformed, which libmicrohttpd 0.9.75 lets through (``HeadFault``).
    var fault: HeadFault?
    /// How many `Host` fields came (RFC 9112 §3.2: more than one is refused).
    var hostFields = 0
    /// Every `Content-Encoding` value, in order: the service reads bodies as sent, so a coded one is refused
    /// (``unsupportedCoding``).
    var contentEncodings: [String] = []
    /// Whether the request's version asks for a `Host` (every one but HTTP/1.0: RFC 9112 §3.2, "A server MUST
    /// respond with a 400 … to any HTTP/1.1 request message that lacks a Host header field").
    var hostRequired = false

    /// A field line libmicrohttpd 0.9.75 accepts and RFC 9110/9112 do not, each a way to make the service and a
    /// proxy in front read different requests.
    enum HeadFault: String, Sendable {
        /// A name that is not a token (RFC 9110 §5.1), above all one with whitespace before the colon: a name
        /// `Content-Length ` is not `Content-Length` to the service, while a proxy may frame the body by it
        /// (RFC 9112 §5.1: "MUST respond with a 400").
        case fieldName = "field name"
        /// A value holding a NUL or a bare CR (RFC 9110 §5.5): libmicrohttpd cuts a value at a NUL
        /// (`Transfer-Encoding: chunked\0, gzip` is chunked to it), and keeps a bare CR in it.
        case fieldValue = "field value"
        /// A `Host` that is not `host[:port]` (RFC 9112 §3.2: "MUST respond with a 400").
        case host = "host"
    }

    /// Records one request header (its name's bytes as received); other names are ignored.
    mutating func add(name: UnsafeBufferPointer<UInt8>, value: @autoclosure () -> String) {
        if name.count == 14 && name.starts(caseInsensitiveWith: "content-length") {
            contentLengths.append(value())
        } else if name.count == 17 && name.starts(caseInsensitiveWith: "transfer-encoding") {
            transferEncodings.append(value())
        } else if name.count == 16 && name.starts(caseInsensitiveWith: "content-encoding") {
            contentEncodings.append(value())
        }
    }

    /// The first content coding other than `identity` of a request with a body, or `nil`. The service reads a body
    /// as it is sent; a gzip body read as JSON was `invalid_json`, and a plain one labelled gzip was served as if it
    /// were not (RFC 9110 §8.4.1: a server refuses a coding it does not know with 415).
    var unsupportedCoding: String? {
        guard expectsBody else { return nil }
        return RequestFraming.codings(contentEncodings).first { !$0.isEmpty && $0 != "identity" }
    }

    /// The codings a list of field values names (RFC 9110 §5.3: lines of comma-separated items), each trimmed and in
    /// lower case (an item of spaces comes out empty).
    private static func codings(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces.lowercased() }
    }

    /// Whether the request, once accepted, has a body to wait for.
    var expectsBody: Bool {
        !transferEncodings.isEmpty || contentLengths.first.map { UInt64($0) != 0 } ?? false
    }

    /// Throws when the framing is ambiguous (400 `invalid_request`) or uses a transfer coding the service does not
    /// implement (501 `not_implemented`).
    func check() throws(LinkError) {
        if folded {
            throw LinkError(
                .invalidRequest, "A header field may not be folded over several lines",
                details: ["reason": "folded header"])
        }
        if let fault {
            throw LinkError(
                .invalidRequest, "A header field is malformed (\(fault.rawValue))",
                details: ["reason": .string(fault.rawValue)])
        }
        if hostFields > 1 {
            throw LinkError(
                .invalidRequest, "A request may have one Host field only", details: ["reason": "duplicate host"])
        }
        if hostFields == 0 && hostRequired {
            throw LinkError(
                .invalidRequest, "An HTTP/1.1 request must have a Host field", details: ["reason": "missing host"])
        }
        if !transferEncodings.isEmpty {
            if !contentLengths.isEmpty {
                throw LinkError(
                    .invalidRequest, "A request may not have both Transfer-Encoding and Content-Length",
                    details: ["reason": "transfer-encoding with content-length"])
            }
            // Exactly libmicrohttpd's own test for a chunked body: one field, the value `chunked` in any case.
            if transferEncodings.count == 1, transferEncodings[0].lowercased() == "chunked" { return }
            if let unknown = RequestFraming.codings(transferEncodings).first(where: { $0 != "chunked" && !$0.isEmpty })
            {
                throw LinkError(
                    .notImplemented, "Transfer-Encoding '\(unknown)' is not supported; only chunked is",
                    details: ["transferEncoding": .string(unknown)])
            }
            throw LinkError(
                .invalidRequest, "Transfer-Encoding must be chunked, exactly once",
                details: ["reason": "transfer-encoding"])
        }
        // libmicrohttpd has checked the first value (digits only); every further one must be the same number.
        guard let first = contentLengths.first, contentLengths.count > 1 else { return }
        let firstValue = UInt64(first)
        for other in contentLengths.dropFirst() {
            guard !other.isEmpty, other.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = UInt64(other),
                value == firstValue
            else {
                throw LinkError(
                    .invalidRequest, "Content-Length fields disagree",
                    details: ["reason": "content-length", "values": .array(contentLengths.map(JSONValue.string))])
            }
        }
    }
}
