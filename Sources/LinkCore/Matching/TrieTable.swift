/// A frozen trie in one open-addressing hash table: every node but the root is the slot of the edge that leads to
/// it, keyed by (parent node, edge), and holds what a lookup reads of the node.
///
/// A lookup step is then one probe: the slot found is the child, with its terminal entry, its catch-all and which
/// kinds of edges leave it. A separate node array cost a second dependent load per level, and in a trie of
/// megabytes each such load is a cache miss (docs/benchmarks.md, "The matcher at 100k routes, eighteenth pass").
/// Edges are case-sensitive literals, case-insensitive (folded) literals and the parameter edge, told apart in
/// the key; a parameter edge is not hashed but placed in the first free slot after its parent's. The table is
/// sized once, at most 75% full, and never grows: a node's number is its slot.
struct TrieTable: Sendable {
    /// The root's number: no slot has it.
    static let root = Int32.max

    /// What leaves a node, and what kind an edge is.
    struct Kinds: OptionSet, Sendable {
        let rawValue: UInt32
        static let exact = Kinds(rawValue: 1 << 24)
        static let folded = Kinds(rawValue: 1 << 25)
        static let parameter = Kinds(rawValue: 1 << 26)
    }

    /// A node, and the edge to it from `parent` (empty when `parent < 0`). 32 bytes: one cache line, or two
    /// for every other slot, as an array's elements start 16 bytes off a line in a large allocation (slots
    /// aligned to lines measured no faster: docs/benchmarks.md).
    struct Slot: Sendable {
        var parent: Int32 = -1
        /// The key's length in bits 0–23 (17 for any key longer than 16 bytes, whose length is kept with its
        /// bytes), the edge's kind in bits 24–26 (``Kinds``), the node's edges in bits 27–29 (the same kinds,
        /// three bits up).
        var info: UInt32 = 0
        /// Entry whose pattern ends at this node, or -1.
        var terminal: Int32 = -1
        /// Entry whose catch-all starts at this node, or -1.
        var catchAll: Int32 = -1
        /// The key's first 16 bytes, zero-padded (see ``SegmentKey``); for a key longer than 16 bytes, its first
        /// 8 bytes and where its length and bytes start in `longKeys`.
        var head: UInt64 = 0
        var tail: UInt64 = 0

        /// Whether an edge of `kind` leaves this node.
        @inline(__always) func has(_ kind: Kinds) -> Bool { info & (kind.rawValue << 3) != 0 }
    }

    private var slots: [Slot]
    /// The root node (its `parent` and key unused).
    private var rootSlot = Slot()
    /// The length (8 bytes) and bytes of each key longer than 16 bytes (rare in URLs).
    private var longKeys: [UInt8] = []

    /// A table for `edges` edges, all of them added with ``add(parent:kind:key:terminal:catchAll:edges:)`` before
    /// any lookup.
    init(edges: Int) {
        slots = Array(repeating: Slot(), count: max(edges + edges / 3 + 1, 2))
    }

    /// The number of slots.
    var capacity: Int { slots.count }

    /// Sets the root node's entries and edges.
    mutating func setRoot(terminal: Int32, catchAll: Int32, edges: Kinds) {
        rootSlot = Slot(parent: -1, info: edges.rawValue << 3, terminal: terminal, catchAll: catchAll)
    }

    /// Adds the edge from `parent` of `kind` along `key` (empty for a parameter edge) to a node with the given
    /// entries and edges, and returns the node's number. The edge must be new and the table not full.
    mutating func add(
        parent: Int32, kind: Kinds, key bytes: UnsafeRawBufferPointer, terminal: Int32, catchAll: Int32, edges: Kinds
    ) -> Int32 {
        let key = SegmentKey(bytes)
        var slot = kind == .parameter ? parameterStart(parent) : start(parent, kind, key)
        while slots[slot].parent >= 0 { slot = next(slot) }
        var node = Slot(
            parent: parent, info: UInt32(min(key.count, 17)) | kind.rawValue | edges.rawValue << 3,
            terminal: terminal, catchAll: catchAll, head: key.head, tail: key.tail)
        if key.count > 16 {
            node.tail = UInt64(longKeys.count)
            withUnsafeBytes(of: UInt64(key.count).littleEndian) { longKeys.append(contentsOf: $0) }
            longKeys.append(contentsOf: bytes)
        }
        slots[slot] = node
        return Int32(slot)
    }

    /// Calls `body` with the slots as a buffer, for ``node(_:in:)`` and the lookups: the walk reads nodes without
    /// retaining the array.
    @inline(__always)
    func withNodes<R>(_ body: (UnsafeBufferPointer<Slot>) -> R) -> R {
        slots.withUnsafeBufferPointer(body)
    }

    /// The node `node` (the root or a slot) of `nodes` (this table's slots).
    @inline(__always)
    func node(_ node: Int32, in nodes: UnsafeBufferPointer<Slot>) -> Slot {
        node == Self.root ? rootSlot : nodes[Int(node)]
    }

    /// The child of `parent` along its parameter edge, which it has.
    @inline(__always)
    func parameterChild(of parent: Int32, in nodes: UnsafeBufferPointer<Slot>) -> Int32 {
        var slot = parameterStart(parent)
        while nodes[slot].parent != parent || nodes[slot].info & Kinds.parameter.rawValue == 0 { slot = next(slot) }
        return Int32(slot)
    }

    /// The child of `parent` along the literal edge of `kind` (exact or folded) and `segment`, or -1.
    @inline(__always)
    func child(of parent: Int32, _ kind: Kinds, _ segment: String, in nodes: UnsafeBufferPointer<Slot>) -> Int32 {
        if let found = segment.utf8.withContiguousStorageIfAvailable({
            child(of: parent, kind, UnsafeRawBufferPointer($0), nodes)
        }) {
            return found
        }
        let bytes = Array(segment.utf8)
        return bytes.withUnsafeBytes { child(of: parent, kind, $0, nodes) }
    }

    private func child(
        of parent: Int32, _ kind: Kinds, _ bytes: UnsafeRawBufferPointer, _ nodes: UnsafeBufferPointer<Slot>
    ) -> Int32 {
        let key = SegmentKey(bytes)
        let wanted = UInt32(min(key.count, 17)) | kind.rawValue
        var slot = start(parent, kind, key)
        while true {
            let candidate = nodes[slot]
            if candidate.parent < 0 { return -1 }
            if candidate.parent == parent && candidate.info & 0x07FF_FFFF == wanted && candidate.head == key.head
                && (key.count > 16 ? sameLongKey(at: Int(candidate.tail), bytes) : candidate.tail == key.tail)
            {
                return Int32(slot)
            }
            slot = next(slot)
        }
    }

    /// Where the probe for (`parent`, `kind`, `key`) starts: the mixed hash scaled to the table's size (the table
    /// is not a power of two, so that it can be sized to the edges).
    @inline(__always)
    private func start(_ parent: Int32, _ kind: Kinds, _ key: SegmentKey) -> Int {
        let hash = key.mixed(parent: parent) ^ UInt64(kind.rawValue >> 24) &* 0xD6E8_FEB8_6659_FD93
        return Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(slots.count)).high)
    }

    /// Where the probe for a parameter edge starts: just after its parent's slot, so that the parameter child
    /// is found without hashing, usually in the cache line just read or the next one (a walk takes it after its
    /// parent's literal edges have failed).
    @inline(__always)
    private func parameterStart(_ parent: Int32) -> Int {
        parent == Self.root ? 0 : next(Int(parent))
    }

    @inline(__always)
    private func next(_ slot: Int) -> Int {
        slot + 1 == slots.count ? 0 : slot + 1
    }

    private func sameLongKey(at start: Int, _ segment: UnsafeRawBufferPointer) -> Bool {
        longKeys.withUnsafeBytes { keys in
            UInt64(littleEndian: keys.loadUnaligned(fromByteOffset: start, as: UInt64.self)) == segment.count
                && memcmpBytes(keys.baseAddress! + start + 8, segment.baseAddress!, segment.count)
        }
    }
}
