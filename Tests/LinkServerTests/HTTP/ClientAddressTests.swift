import Testing

@testable import LinkServer

@Suite struct ClientAddressTests {
    static func address(_ bytes: [UInt8]) -> ClientAddress? {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyBytes(from: bytes) }
        return ClientAddress(length: bytes.count, bytes: words)
    }

    @Test func writtenAsInetNtopDoes() {
        #expect(ClientAddressTests.address([203, 0, 113, 7])?.text == "203.0.113.7")
        #expect(
            ClientAddressTests.address([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])?.text
                == "2001:db8::1")
        #expect(ClientAddressTests.address([]) == nil)
    }

    @Test func unknownIsEmpty() {
        #expect(Request(method: "GET", path: "/").clientAddress == "")
        let known = Request(method: "GET", path: "/", client: ClientAddressTests.address([127, 0, 0, 1]))
        #expect(known.clientAddress == "127.0.0.1")
    }
}

@Suite struct ReceivedHeadersTests {
    static func add(_ received: inout ReceivedHeaders, _ name: String, _ value: String) {
        var name = name
        let size = value.utf8.count
        name.withUTF8 { name in
            value.withCString { received.add(name: UnsafeRawBufferPointer(name), value: $0, valueSize: size) }
        }
    }

    @Test func firstValueOfAFieldInAnyCase() {
        var received = ReceivedHeaders(fieldCount: RequestHeaders.names.count)
        ReceivedHeadersTests.add(&received, "User-Agent", "first")
        ReceivedHeadersTests.add(&received, "user-agent", "second")
        ReceivedHeadersTests.add(&received, "X-Other", "x")
        ReceivedHeadersTests.add(&received, "CONTENT-LENGTH", "5")
        ReceivedHeadersTests.add(&received, "Transfer-Encoding", "chunked")
        #expect(received.takeHeaders()[.userAgent] == "first")
        #expect(received.takeHeaders()[.contentLength] == "5")
        #expect(received.framing.contentLengths == ["5"])
        #expect(received.framing.transferEncodings == ["chunked"])
    }

    @Test func onlyTheFirstFields() {
        var received = ReceivedHeaders(fieldCount: RequestHeaders.apiNames.count)
        ReceivedHeadersTests.add(&received, "Host", "example.com")
        ReceivedHeadersTests.add(&received, "Accept", "*/*")
        #expect(received.takeHeaders()[.host] == nil)
        #expect(received.takeHeaders()[.accept] == "*/*")
    }
}
