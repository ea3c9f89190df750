import Testing

@testable import LinkCore

@Suite struct ByteOutputTests {
    /// Every kind of append, across many growths from the smallest buffer: the bytes come out in order, whole.
    @Test func keepsEveryByteAcrossGrowth() {
        var output = ByteOutput(capacity: 1)
        var expected: [UInt8] = []
        for round in 0..<300 {
            let byte = UInt8(truncatingIfNeeded: round)
            output.append(byte)
            expected.append(byte)
            let piece = Array(repeating: UInt8(ascii: "a") + UInt8(round % 26), count: round % 70)
            piece.withUnsafeBufferPointer { output.append($0) }
            expected += piece
            output.append("é\(round)")
            expected += Array("é\(round)".utf8)
            output.append(atMost: 8) { start in
                start[0] = UInt8(ascii: "#")
                return 1
            }
            expected.append(UInt8(ascii: "#"))
        }
        #expect(output.count == expected.count)
        #expect(output.bytes == expected)
        #expect(output.finish(appending: UInt8(ascii: "\n")) == expected + [UInt8(ascii: "\n")])
    }

    @Test func anEmptyOutputFinishesEmpty() {
        let output = ByteOutput(capacity: 0)
        #expect(output.finish() == [])
    }
}
