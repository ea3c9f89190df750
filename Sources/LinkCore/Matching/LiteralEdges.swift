/// The literal edges of a frozen trie in one open-addressing hash table keyed by (parent node, segment bytes).
///
/// One table for the whole trie keeps a lookup to a hash of the segment's UTF-8 bytes and one or two probes,
/// whatever the number of edges or of siblings. An edge lives in its slot with the first 16 bytes of its key
/// (nearly every URL segment fits), so a probe reads one cache line: with a table of megabytes, each further
/// dependent load (a slot holding an index into an edge array, an edge pointing into a key buffer) was a cache
/// miss per level. Texts compare byte for byte (not by Unicode canonical equivalence), as URLs do.
struct LiteralEdges: Sendable {
    /// A slot: an edge, or empty (`parent < 0`). 32 bytes, two to a cache line.
    private struct Slot: Sendable {
        var parent: Int32 = -1
        var child: Int32 = -1
        var keyCount: Int32 = 0
        /// Where the bytes of a key longer than 16 bytes start in `longKeys`.
        var longStart: Int32 = 0
        /// The key's first 16 bytes, zero-padded (see ``Key``).
        var head: UInt64 = 0
        var tail: UInt64 = 0
    }

    /// A segment's hash and its first 16 bytes as a slot stores them, computed in one pass over the bytes.
    private struct Key {
        var hash: UInt64
        var head: UInt64
        var tail: UInt64
        var count: Int

        @inline(__always)
        init(_ bytes: UnsafeRawBufferPointer) {
            let count = bytes.count
            var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
            var words = (UInt64(0), UInt64(0))
            var offset = 0
            while offset + 8 <= count {
                let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                if offset == 0 { words.0 = word } else if offset == 8 { words.1 = word }
                hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
                hash ^= hash >> 32
                offset += 8
            }
            if offset < count {
                // The last bytes as they lie in memory, zero-padded, so a slot's words give the key's bytes back.
                var last: UInt64 = 0
                withUnsafeMutableBytes(of: &last) {
                    $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<count]))
                }
                if offset == 0 { words.0 = last } else if offset == 8 { words.1 = last }
                hash = (hash ^ last) &* 0xC4CE_B9FE_1A85_EC53
                hash ^= hash >> 29
            }
            self.hash = hash
            self.count = count
            head = words.0
            tail = words.1
        }

        /// The slot the probe for `parent` starts at: the parent mixed in so that the low bits depend on both.
        @inline(__always)
        func start(parent: Int32, mask: Int) -> Int {
            var mixed = hash ^ (UInt64(UInt32(bitPattern: parent)) &* 0x9E37_79B9_7F4A_7C15)
            mixed ^= mixed >> 29
            mixed &*= 0xBF58_476D_1CE4_E5B9
            mixed ^= mixed >> 32
            return Int(truncatingIfNeeded: mixed) & mask
        }
    }

    private var slots: [Slot]
    private var mask: Int
    /// The number of edges.
    private var count = 0
    /// The bytes of keys longer than 16 bytes (rare in URLs).
    private var longKeys: [UInt8] = []

    /// An empty table; it grows as edges are added, staying at most 70% full (a power of two between 1.43 and 2.86
    /// slots per edge).
    init() {
        slots = Array(repeating: Slot(), count: 8)
        mask = 7
    }

    /// The child of `parent` along `key`, after adding the edge to `newChild` when there is none (the caller then
    /// makes that node).
    mutating func child(of parent: Int32, _ key: String, orAdd newChild: Int32) -> Int32 {
        var key = key
        return key.withUTF8 { child(of: parent, UnsafeRawBufferPointer($0), orAdd: newChild) }
    }

    private mutating func child(of parent: Int32, _ bytes: UnsafeRawBufferPointer, orAdd child: Int32) -> Int32 {
        let key = Key(bytes)
        let found = probe(parent, key, bytes)
        if slots[found].parent >= 0 { return slots[found].child }
        var slot = found
        if (count + 1) * 10 > slots.count * 7 {
            grow()
            slot = probe(parent, key, bytes)
        }
        slots[slot] = Slot(
            parent: parent, child: child, keyCount: Int32(key.count), longStart: Int32(longKeys.count),
            head: key.head, tail: key.tail)
        if key.count > 16 { longKeys.append(contentsOf: bytes) }
        count += 1
        return child
    }

    /// Twice the slots, every edge placed again by the hash of its key (read back from its slot).
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(), count: old.count * 2)
        mask = slots.count - 1
        longKeys.withUnsafeBytes { long in
            for edge in old where edge.parent >= 0 {
                let length = Int(edge.keyCount)
                let key =
                    length > 16
                    ? Key(UnsafeRawBufferPointer(rebasing: long[Int(edge.longStart)..<Int(edge.longStart) + length]))
                    : withUnsafeBytes(of: (edge.head, edge.tail)) {
                        Key(UnsafeRawBufferPointer(rebasing: $0[..<length]))
                    }
                var slot = key.start(parent: edge.parent, mask: mask)
                while slots[slot].parent >= 0 { slot = (slot + 1) & mask }
                slots[slot] = edge
            }
        }
    }

    /// The child of `parent` along the edge `segment`, or -1.
    @inline(__always)
    func child(of parent: Int32, _ segment: String) -> Int32 {
        if let found = segment.utf8.withContiguousStorageIfAvailable({ child(of: parent, UnsafeRawBufferPointer($0)) })
        {
            return found
        }
        let bytes = Array(segment.utf8)
        return bytes.withUnsafeBytes { child(of: parent, $0) }
    }

    private func child(of parent: Int32, _ segment: UnsafeRawBufferPointer) -> Int32 {
        let slot = probe(parent, Key(segment), segment)
        return slots.withUnsafeBufferPointer { $0[slot].child }
    }

    /// The slot of the edge (`parent`, `key`), or the empty slot where it would go (whose child is -1).
    @inline(__always)
    private func probe(_ parent: Int32, _ key: Key, _ bytes: UnsafeRawBufferPointer) -> Int {
        slots.withUnsafeBufferPointer { slots in
            var slot = key.start(parent: parent, mask: mask)
            while true {
                let candidate = slots[slot]
                if candidate.parent < 0 { return slot }
                if candidate.parent == parent && candidate.head == key.head && candidate.tail == key.tail
                    && Int(candidate.keyCount) == key.count
                    && (key.count <= 16 || sameLongKey(at: Int(candidate.longStart), bytes))
                {
                    return slot
                }
                slot = (slot + 1) & mask
            }
        }
    }

    private func sameLongKey(at start: Int, _ segment: UnsafeRawBufferPointer) -> Bool {
        longKeys.withUnsafeBytes { keys in
            memcmpBytes(keys.baseAddress! + start, segment.baseAddress!, segment.count)
        }
    }
}

/// Byte equality of two buffers of `count` bytes (a word at a time; no Foundation).
@inline(__always)
private func memcmpBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    var offset = 0
    while offset + 8 <= count {
        if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
            return false
        }
        offset += 8
    }
    while offset < count {
        if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
            return false
        }
        offset += 1
    }
    return true
}
