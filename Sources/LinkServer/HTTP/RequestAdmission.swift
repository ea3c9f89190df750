import LinkCore
import Synchronization

/// What the HTTP layer decides from a request's head alone, before any body byte is read and before any handler
/// runs: the refusals of API.md §1 (a NUL in the target, ambiguous framing, 414, a declared 413) and the request id.
/// The daemon only asks; the rules live here.
final class RequestAdmission: Sendable {
    let maxURIBytes: Int
    let maxBodyBytes: Int
    private let idCounter = Atomic<UInt64>(0)
    /// Generated request ids are this process's random prefix and a counter: `1qcrpuu-1`, `1qcrpuu-2`, …
    private let idPrefix = String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 36) + "-"

    init(maxURIBytes: Int, maxBodyBytes: Int) {
        self.maxURIBytes = maxURIBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// The answer for a request whose head rules it out, or nil to go on reading it. `targetComplete` is false when
    /// the target holds a NUL byte, which cuts every C string of it short: such a target is refused rather than
    /// served shorter.
    func refusal(target: String, targetComplete: Bool, framing: RequestFraming, headers: RequestHeaders) -> Response? {
        guard targetComplete else { return closing(.nulInTarget) }
        // libmicrohttpd 0.9.75 takes the line's last space for the one before the version, so `GET /a b HTTP/1.1`
        // reaches here as the target `/a b`: a request line RFC 9112 §3 makes invalid, served as a click on `/a b`.
        if target.withUTF8Bytes({ $0.contains(UInt8(ascii: " ")) }) { return closing(.spaceInTarget) }
        do {
            try framing.check()
        } catch {
            return closing(error)
        }
        if let coding = framing.unsupportedCoding {
            // RFC 9110 §15.5.16: a 415 for a content coding says which codings are accepted.
            return ErrorEnvelope.response(
                for: .unsupportedContentCoding(coding),
                headers: [("Accept-Encoding", "identity"), ("Connection", "close")])
        }
        if target.utf8.count > maxURIBytes {
            return ErrorEnvelope.response(for: .uriTooLong(limit: maxURIBytes))
        }
        if let length = headers[.contentLength].flatMap(RequestAdmission.declaredLength), length > maxBodyBytes {
            return tooLarge()
        }
        return nil
    }

    /// A `Content-Length` value as `Int(value.trimmingSpaces)` reads it (spaces and tabs around it, an optional
    /// sign), scanned in place: trimming made a substring and a string for every request with a body (~900
    /// instructions). `nil` when it is not such a number, or does not fit.
    static func declaredLength(_ value: String) -> Int? {
        value.withUTF8Bytes { bytes in
            let trimmed = bytes.trimmingSpaces()
            var lower = trimmed.lowerBound
            let upper = trimmed.upperBound
            var negative = false
            if lower < upper, bytes[lower] == UInt8(ascii: "+") || bytes[lower] == UInt8(ascii: "-") {
                negative = bytes[lower] == UInt8(ascii: "-")
                lower += 1
            }
            guard lower < upper else { return nil }
            var length = 0
            for byte in bytes[lower..<upper] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (tens, over) = length.multipliedReportingOverflow(by: 10)
                let digit = Int(byte - UInt8(ascii: "0"))
                let (next, overAgain) =
                    negative ? tens.subtractingReportingOverflow(digit) : tens.addingReportingOverflow(digit)
                guard !over, !overAgain else { return nil }
                length = next
            }
            return length
        }
    }

    /// 413 for a body that outgrew the limit while arriving (or was declared larger than it).
    func tooLarge() -> Response { closing(.payloadTooLarge(limit: maxBodyBytes)) }

    /// The client's `X-Request-Id` when it is short printable ASCII, else a new id.
    func requestID(from header: String?) -> String {
        if let header, !header.isEmpty, header.utf8.count <= 64, header.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            return header
        }
        return RequestAdmission.id(prefix: idPrefix, counter: idCounter.add(1, ordering: .relaxed).newValue)
    }

    /// `prefix` and `counter` in base 36, written into one new string (a `String(radix:)` and an append made two).
    static func id(prefix: String, counter: UInt64) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 13) { digits in
            // UInt64.max is 13 digits in base 36; they are written from the end.
            var value = counter
            var start = digits.count
            repeat {
                start -= 1
                let digit = UInt8(value % 36)
                digits[start] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                value /= 36
            } while value > 0
            var prefix = prefix
            return prefix.withUTF8 { head in
                String(unsafeUninitializedCapacity: head.count + digits.count - start) { buffer in
                    _ = buffer.initialize(fromContentsOf: head)
                    _ = buffer[head.count...].initialize(fromContentsOf: digits[start...])
                    return head.count + digits.count - start
                }
            }
        }
    }

    /// An answer after which the connection is closed: nothing after a malformed request can be trusted to start
    /// another one.
    private func closing(_ error: LinkError) -> Response {
        ErrorEnvelope.response(for: error, headers: [("Connection", "close")])
    }
}
