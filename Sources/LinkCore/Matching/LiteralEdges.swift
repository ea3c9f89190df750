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
            count = bytes.count
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
                var last: UInt64 = 0
                var shift: UInt64 = 0
                for index in offset..<count {
                    last |= UInt64(bytes[index]) << shift
                    shift += 8
                }
                if offset == 0 { words.0 = last } else if offset == 8 { words.1 = last }
                hash = (hash ^ last) &* 0xC4CE_B9FE_1A85_EC53
                hash ^= hash >> 29
            }
            self.hash = hash
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
    /// The bytes of keys longer than 16 bytes (rare in URLs).
    private var longKeys: [UInt8] = []

    /// A table for `count` edges, at most 70% full (a power of two between 1.43 and 2.86 slots per edge).
    init(capacity count: Int) {
        var size = 8
        while size * 7 < count * 10 { size <<= 1 }
        slots = Array(repeating: Slot(), count: size)
        mask = size - 1
    }

    /// Adds the edge `parent --key--> child`; each (parent, key) pair is added once.
    mutating func insert(parent: Int32, key: String, child: Int32) {
        var key = key
        key.withUTF8 { insert(parent: parent, key: UnsafeRawBufferPointer($0), child: child) }
    }

    private mutating func insert(parent: Int32, key bytes: UnsafeRawBufferPointer, child: Int32) {
        let key = Key(bytes)
        var slot = key.start(parent: parent, mask: mask)
        while slots[slot].parent >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Slot(
            parent: parent, child: child, keyCount: Int32(key.count), longStart: Int32(longKeys.count),
            head: key.head, tail: key.tail)
        if key.count > 16 { longKeys.append(contentsOf: bytes) }
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
        let key = Key(segment)
        return slots.withUnsafeBufferPointer { slots in
            var slot = key.start(parent: parent, mask: mask)
            while true {
                let candidate = slots[slot]
                if candidate.parent < 0 { return -1 }
                if candidate.parent == parent && candidate.head == key.head && candidate.tail == key.tail
                    && Int(candidate.keyCount) == key.count
                    && (key.count <= 16 || sameLongKey(at: Int(candidate.longStart), segment))
                {
                    return candidate.child
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
