/// The literal edges of a frozen trie in one open-addressing hash table keyed by (parent node, segment bytes).
///
/// One table for the whole trie keeps a lookup to a hash of the segment's UTF-8 bytes, one or two probes and a
/// `memcmp`, whatever the number of edges or of siblings. Texts compare byte for byte (not by Unicode canonical
/// equivalence), as URLs do. Keys live in one byte buffer, so probing touches no reference-counted storage.
struct LiteralEdges: Sendable {
    private struct Edge: Sendable {
        var hash: UInt64
        var parent: Int32
        var child: Int32
        var keyStart: Int32
        var keyCount: Int32
    }

    private var slots: [Int32]
    private var mask: Int
    private var edges: [Edge] = []
    private var keyBytes: [UInt8] = []

    /// A table for `count` edges, at most half full.
    init(capacity count: Int) {
        var size = 8
        while size < count * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        mask = size - 1
        edges.reserveCapacity(count)
    }

    /// Adds the edge `parent --key--> child`; each (parent, key) pair is added once.
    mutating func insert(parent: Int32, key: String, child: Int32) {
        var key = key
        key.withUTF8 { insert(parent: parent, key: UnsafeRawBufferPointer($0), child: child) }
    }

    private mutating func insert(parent: Int32, key: UnsafeRawBufferPointer, child: Int32) {
        let hash = LiteralEdges.combine(LiteralEdges.hash(key), parent: parent)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(edges.count)
        edges.append(
            Edge(
                hash: hash, parent: parent, child: child, keyStart: Int32(keyBytes.count),
                keyCount: Int32(key.count)))
        keyBytes.append(contentsOf: key)
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
        let hash = LiteralEdges.combine(LiteralEdges.hash(segment), parent: parent)
        return slots.withUnsafeBufferPointer { slots in
            edges.withUnsafeBufferPointer { edges in
                var slot = Int(truncatingIfNeeded: hash) & mask
                while true {
                    let index = Int(slots[slot])
                    if index < 0 { return -1 }
                    let edge = edges[index]
                    if edge.hash == hash && edge.parent == parent && Int(edge.keyCount) == segment.count
                        && sameBytes(at: Int(edge.keyStart), segment)
                    {
                        return edge.child
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    private func sameBytes(at start: Int, _ segment: UnsafeRawBufferPointer) -> Bool {
        if segment.isEmpty { return true }
        return keyBytes.withUnsafeBytes { keys in
            memcmpBytes(keys.baseAddress! + start, segment.baseAddress!, segment.count)
        }
    }

    /// A hash of `bytes`, eight bytes at a time (a multiply-xorshift mix per word).
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 29)
    }

    /// Mixes the parent node into a segment hash so that the low bits (the slot) depend on both.
    @inline(__always)
    static func combine(_ hash: UInt64, parent: Int32) -> UInt64 {
        var mixed = hash ^ (UInt64(UInt32(bitPattern: parent)) &* 0x9E37_79B9_7F4A_7C15)
        mixed ^= mixed >> 29
        mixed &*= 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 32
        return mixed
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
