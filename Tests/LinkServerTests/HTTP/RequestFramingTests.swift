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
        framing.add(name: "content-LENGTH", value: "3")
        framing.add(name: "Transfer-Encoding", value: "chunked")
        framing.add(name: "Content-Type", value: "application/json")
        #expect(framing == RequestFraming(contentLengths: ["3"], transferEncodings: ["chunked"]))
    }

    @Test func expectsBody() {
        #expect(!RequestFraming().expectsBody)
        #expect(!RequestFraming(contentLengths: ["0"]).expectsBody)
        #expect(RequestFraming(contentLengths: ["1"]).expectsBody)
        #expect(RequestFraming(transferEncodings: ["chunked"]).expectsBody)
    }
}
