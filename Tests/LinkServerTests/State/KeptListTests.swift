import Testing

@testable import LinkServer

/// The list kept per snapshot: written once, the same array for every client, replaced only by a newer snapshot's.
@Suite struct KeptListTests {
    private final class Writes {
        var count = 0
    }

    private func list(_ kept: KeptList, serial: UInt64, _ text: String, _ writes: Writes? = nil) -> [UInt8] {
        kept.response(serial: serial) {
            writes?.count += 1
            return Response(status: 200, body: Array(text.utf8))
        }.body
    }

    @Test func writtenOnceAndSharedPerSnapshot() {
        let kept = KeptList()
        let writes = Writes()
        let first = list(kept, serial: 3, String(repeating: "a", count: 100_000), writes)
        let again = (0..<3).map { _ in list(kept, serial: 3, "other", writes) }
        #expect(writes.count == 1)
        #expect(again.allSatisfy { $0 == first })
        // One array: every answer is sent from the same bytes.
        let addresses = ([first] + again).map { $0.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } }
        #expect(Set(addresses).count == 1)
    }

    @Test func aNewerSnapshotReplacesItAndAnOlderOneDoesNot() {
        let kept = KeptList()
        #expect(list(kept, serial: 3, "3") == Array("3".utf8))
        #expect(list(kept, serial: 4, "4") == Array("4".utf8))
        // A request still reading the older snapshot gets its own list, and the newer one stays kept.
        #expect(list(kept, serial: 3, "3 again") == Array("3 again".utf8))
        #expect(list(kept, serial: 4, "not written") == Array("4".utf8))
    }
}
