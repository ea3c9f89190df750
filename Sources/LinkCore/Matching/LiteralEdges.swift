/// The literal edges of a trie being built, in one open-addressing hash table keyed by (parent node, segment
/// bytes) that grows as edges are added; ``TrieTable`` is the frozen form a lookup walks.
///
/// An edge lives in its slot with the first 16 bytes of its key (nearly every URL segment fits), so finding an
/// edge while inserting reads one cache line and hashes the key once. Texts compare byte for byte (not by
/// Unicode canonical equivalence), as URLs do.
struct LiteralEdges: Sendable {
    /// A slot: an edge, or empty (`parent < 0`). 32 bytes, two to a cache line.
    private struct Slot: Sendable {
        var parent: Int32 = -1
        var child: Int32 = -1
        var keyCount: Int32 = 0
        /// Where the bytes of a key longer than 16 bytes start in `longKeys`.
        var longStart: Int32 = 0
        /// The key's first 16 bytes, zero-padded (see ``SegmentKey``).
        var head: UInt64 = 0
        var tail: UInt64 = 0
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
        let key = SegmentKey(bytes)
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
                var slot = Self.withKey(of: edge, long) { SegmentKey($0) }.start(parent: edge.parent, mask: mask)
                while slots[slot].parent >= 0 { slot = (slot + 1) & mask }
                slots[slot] = edge
            }
        }
    }

    /// Calls `body` with every edge: its parent, its child and its key's bytes (in no particular order).
    func forEachEdge(_ body: (_ parent: Int32, _ child: Int32, _ key: UnsafeRawBufferPointer) -> Void) {
        longKeys.withUnsafeBytes { long in
            for edge in slots where edge.parent >= 0 {
                Self.withKey(of: edge, long) { body(edge.parent, edge.child, $0) }
            }
        }
    }

    /// Calls `body` with the bytes of `edge`'s key: from the slot, or from `long` (``longKeys``) past 16 bytes.
    @inline(__always)
    private static func withKey<R>(
        of edge: Slot, _ long: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R
    ) -> R {
        let length = Int(edge.keyCount)
        if length > 16 {
            return body(UnsafeRawBufferPointer(rebasing: long[Int(edge.longStart)..<Int(edge.longStart) + length]))
        }
        return withUnsafeBytes(of: (edge.head, edge.tail)) { body(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
    }

    /// The slot of the edge (`parent`, `key`), or the empty slot where it would go (whose child is -1).
    @inline(__always)
    private func probe(_ parent: Int32, _ key: SegmentKey, _ bytes: UnsafeRawBufferPointer) -> Int {
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
func memcmpBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
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

/// A segment's hash and its first 16 bytes as a slot stores them, computed in one pass over the bytes.
struct SegmentKey {
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

    /// The hash with `parent` mixed in, so that every bit depends on both.
    @inline(__always)
    func mixed(parent: Int32) -> UInt64 {
        var mixed = hash ^ (UInt64(UInt32(bitPattern: parent)) &* 0x9E37_79B9_7F4A_7C15)
        mixed ^= mixed >> 29
        mixed &*= 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 32
        return mixed
    }

    /// The slot the probe for `parent` starts at in a table of `mask + 1` slots (a power of two).
    @inline(__always)
    func start(parent: Int32, mask: Int) -> Int {
        Int(truncatingIfNeeded: mixed(parent: parent)) & mask
    }
}
