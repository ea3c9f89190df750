import LinkCore
import Testing

@testable import LinkServer

@Suite struct RequestFramingTests {
    /// `Content-Length` values, `Transfer-Encoding` values, and the code refusing them (`nil`: accepted).
    @Test(
        arguments: [
            ([], [], nil),
            (["11"], [], nil),
            (["11", "11"], [], nil),
            (["11", "011"], [], nil),
            (["11", "45"], [], "invalid_request"),
            (["11", "11, 11"], [], "invalid_request"),
            (["11", ""], [], "invalid_request"),
            (["11", "99999999999999999999999"], [], "invalid_request"),
            ([], ["chunked"], nil),
            ([], ["Chunked"], nil),
            (["5"], ["chunked"], "invalid_request"),
            ([], ["chunked, chunked"], "invalid_request"),
            ([], ["chunked", "chunked"], "invalid_request"),
            ([], ["chunked,"], "invalid_request"),
            ([], ["gzip"], "not_implemented"),
            ([], ["gzip, chunked"], "not_implemented"),
            ([], ["chunked", "gzip"], "not_implemented"),
            (["5"], ["gzip"], "invalid_request"),
        ] as [([String], [String], String?)])
    func framing(lengths: [String], encodings: [String], refusal: String?) {
        let framing = RequestFraming(contentLengths: lengths, transferEncodings: encodings)
        do {
            try framing.check()
            #expect(refusal == nil)
        } catch {
            #expect(error.code.rawValue == refusal)
        }
    }

    @Test func headerNamesAreCaseInsensitive() {
        var framing = RequestFraming()
        for (name, value) in [
            ("content-LENGTH", "3"), ("Transfer-Encoding", "chunked"), ("Content-Type", "application/json"),
            // Only letters fold: a control byte is not a hyphen with bit 5 cleared, nor a longer name a framing one.
            ("content\rlength", "4"), ("transfer\rencoding", "gzip"), ("Content-Length2", "5"), ("Content-Lengt", "6"),
        ] {
            Array(name.utf8).withUnsafeBufferPointer { framing.add(name: $0, value: value) }
        }
        #expect(framing == RequestFraming(contentLengths: ["3"], transferEncodings: ["chunked"]))
    }

    @Test func expectsBody() {
        #expect(!RequestFraming().expectsBody)
        #expect(!RequestFraming(contentLengths: ["0"]).expectsBody)
        #expect(RequestFraming(contentLengths: ["1"]).expectsBody)
        #expect(RequestFraming(transferEncodings: ["chunked"]).expectsBody)
    }
}
