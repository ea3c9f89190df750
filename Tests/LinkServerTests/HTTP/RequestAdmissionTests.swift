import Testing

@testable import LinkServer

/// Generated request ids: the process's prefix and a base-36 counter (`1qcrpuu-1`, `1qcrpuu-a`, …).
@Suite struct RequestAdmissionTests {
    @Test(arguments: [0, 1, 9, 10, 35, 36, 1295, 1296, 123_456_789, UInt64(Int64.max), UInt64.max])
    func theCounterIsWrittenInBase36(counter: UInt64) {
        #expect(RequestAdmission.id(prefix: "1qcrpuu-", counter: counter) == "1qcrpuu-" + String(counter, radix: 36))
    }

    @Test func aSaneClientIDIsKeptAndOthersAreReplaced() {
        let admission = RequestAdmission(maxURIBytes: 8192, maxBodyBytes: 1 << 20)
        #expect(admission.requestID(from: "abc-123") == "abc-123")
        let first = admission.requestID(from: nil)
        let second = admission.requestID(from: "has space")
        #expect(first != second)
        #expect(first.split(separator: "-").count == 2)
        #expect(second.split(separator: "-").first == first.split(separator: "-").first)
        #expect(admission.requestID(from: String(repeating: "x", count: 65)).count < 65)
    }

    /// The declared body length is read as `Int` reads the trimmed value, every edge included.
    @Test(arguments: [
        "0", "12", "  12", "12  ", "\t7\t", " \t 42 \t ", "+5", "-5", "+", "-", "", "   ", "1 2", "12a", "a12",
        "0012", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "99999999999999999999", "١٢", "12\n",
    ])
    func aDeclaredLengthReadsAsIntOfTheTrimmedValue(value: String) {
        #expect(RequestAdmission.declaredLength(value) == Int(value.trimmingSpaces))
    }

    @Test func aBodyDeclaredPastTheLimitIsRefused() {
        let admission = RequestAdmission(maxURIBytes: 8192, maxBodyBytes: 100)
        func refusal(_ length: String) -> Int? {
            admission.refusal(
                target: "/v1/resolve", targetComplete: true, framing: RequestFraming(),
                headers: ["content-length": length])?.status
        }
        #expect(refusal(" 101 ") == 413)
        #expect(refusal("100") == nil)
    }
}
