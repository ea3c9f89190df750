/// A generic matcher from decoded path segments to values: the one matcher behind routes, resources, event
/// types and the service's own endpoint table (ARCHITECTURE.md).
///
/// Built once from entries and frozen into an immutable `Sendable` snapshot; rebuild it on change and swap it.
/// At each segment a literal beats a parameter, which beats a catch-all, with backtracking when a branch
/// dead-ends; the result does not depend on the order of the entries. Case-sensitive literals are tried before
/// case-insensitive ones. A lookup hashes each segment once per visit and follows one hash-table probe per
/// literal level, so its cost grows with the path length, not with the number of entries.
///
/// Entries whose patterns have the same ``Pattern/shape(caseInsensitive:)`` land on the same slot: the first
/// one given wins. Callers that must refuse such duplicates check shapes before building.
public struct SegmentTrie<Value: Sendable>: Sendable {
    /// One pattern and the value it leads to.
    public struct Entry: Sendable {
        public var pattern: Pattern
        public var value: Value
        /// Whether this entry's literal segments compare case-insensitively (lower-cased); parameter values
        /// always keep their case.
        public var caseInsensitive: Bool

        public init(_ pattern: Pattern, _ value: Value, caseInsensitive: Bool = false) {
            self.pattern = pattern
            self.value = value
            self.caseInsensitive = caseInsensitive
        }
    }

    /// The entries in the order given; ``Match/index`` points into this.
    public let entries: [Entry]
    /// What a match reads of each entry, kept apart from ``entries``: 16 bytes for an `Int` value against 48 for
    /// an entry with its pattern, so that in a large trie the matched one is more often in the cache (at 100k
    /// entries, reading the entry cost ~60 ns per lookup, more than the walk; docs/benchmarks.md).
    @usableFromInline let targets: [Target]
    /// An entry's value and its pattern's parameter layout (shared, ``Pattern/sharingLayout(_:)``).
    @usableFromInline struct Target: Sendable {
        @usableFromInline let value: Value
        @usableFromInline let layout: ParameterLayout?
    }
    /// The non-generic matcher (generic code called from another module would run unspecialised).
    @usableFromInline let index: SegmentIndex

    /// An empty trie that matches nothing.
    public init() {
        self.init([])
    }

    /// Builds the trie of `entries`.
    public init(_ entries: [Entry]) {
        var builder = SegmentTrieBuilder()
        var entries = entries
        // Equal parameter layouts become one object: a match reads its entry's layout, which then stays in the
        // cache however many entries there are.
        var layouts = Set<ParameterLayout>()
        for index in entries.indices {
            entries[index].pattern = entries[index].pattern.sharingLayout(&layouts)
            builder.insert(entries[index].pattern, entry: Int32(index), caseInsensitive: entries[index].caseInsensitive)
        }
        self.entries = entries
        self.targets = entries.map { Target(value: $0.value, layout: $0.pattern.layout) }
        self.index = builder.freeze()
    }

    /// The number of entries.
    @inlinable public var count: Int { entries.count }
}
