/// Builds a ``SegmentTrie``'s index: flat nodes and two literal tables that grow as patterns are added (a
/// dictionary of children per node cost a third of loading 100k routes); freezing adds every edge once to the
/// ``TrieTable`` a lookup walks.
struct SegmentTrieBuilder {
    private var nodes = [SegmentTrieNode()]
    private var exact = LiteralEdges()
    private var folded = LiteralEdges()

    /// Adds the path of `pattern`, ending in `entry`; a slot already taken keeps its first entry.
    mutating func insert(_ pattern: Pattern, entry: Int32, caseInsensitive: Bool) {
        var current: Int32 = 0
        for segment in pattern.segments {
            switch segment {
            case .literal(let text):
                let next = Int32(nodes.count)
                if caseInsensitive {
                    nodes[Int(current)].hasFolded = true
                    current = folded.child(of: current, SegmentTrieBuilder.fold(text), orAdd: next)
                } else {
                    nodes[Int(current)].hasExact = true
                    current = exact.child(of: current, text, orAdd: next)
                }
                if current == next { nodes.append(SegmentTrieNode()) }
            case .parameter:
                if nodes[Int(current)].parameter < 0 {
                    nodes[Int(current)].parameter = Int32(nodes.count)
                    nodes.append(SegmentTrieNode())
                }
                current = nodes[Int(current)].parameter
            case .catchAll:
                if nodes[Int(current)].catchAll < 0 { nodes[Int(current)].catchAll = entry }
                return
            }
        }
        if nodes[Int(current)].terminal < 0 { nodes[Int(current)].terminal = entry }
    }

    /// The frozen matcher: every node in one ``TrieTable``, numbered by its slot there.
    ///
    /// A child always has a higher number here than its parent, so adding the edges in the order of their
    /// parents' numbers adds every parent before its children, and its slot (its number in the table) is known
    /// when its own edges are added.
    func freeze() -> SegmentIndex {
        // The edges, grouped by parent (a counting sort), each with its key's bytes.
        struct Edge {
            var child: Int32
            var kind: TrieTable.Kinds
            /// Where the key's bytes are in `keyBytes`.
            var keyStart: Int32
            var keyCount: Int32
        }
        var firsts = [Int32](repeating: 0, count: nodes.count + 1)
        var keyTotal = 0
        for table in [exact, folded] {
            table.forEachEdge { parent, _, key in
                firsts[Int(parent) + 1] += 1
                keyTotal += key.count
            }
        }
        for (index, node) in nodes.enumerated() where node.parameter >= 0 { firsts[index + 1] += 1 }
        for index in nodes.indices { firsts[index + 1] += firsts[index] }
        let edgeCount = Int(firsts[nodes.count])
        var edges = [Edge](repeating: Edge(child: -1, kind: .exact, keyStart: 0, keyCount: 0), count: edgeCount)
        var keyBytes: [UInt8] = []
        keyBytes.reserveCapacity(keyTotal)
        var filled = firsts
        for (table, kind) in [(exact, TrieTable.Kinds.exact), (folded, .folded)] {
            table.forEachEdge { parent, child, key in
                let at = Int(filled[Int(parent)])
                filled[Int(parent)] += 1
                edges[at] = Edge(child: child, kind: kind, keyStart: Int32(keyBytes.count), keyCount: Int32(key.count))
                keyBytes.append(contentsOf: key)
            }
        }
        for (index, node) in nodes.enumerated() where node.parameter >= 0 {
            let at = Int(filled[index])
            filled[index] += 1
            edges[at] = Edge(child: node.parameter, kind: .parameter, keyStart: 0, keyCount: 0)
        }

        var table = TrieTable(edges: edgeCount)
        table.setRoot(terminal: nodes[0].terminal, catchAll: nodes[0].catchAll, edges: nodes[0].edges)
        var numbers = [Int32](repeating: -1, count: nodes.count)
        numbers[0] = TrieTable.root
        keyBytes.withUnsafeBytes { bytes in
            for parent in nodes.indices {
                for edge in edges[Int(firsts[parent])..<Int(firsts[parent + 1])] {
                    let child = nodes[Int(edge.child)]
                    let key = UnsafeRawBufferPointer(
                        rebasing: bytes[Int(edge.keyStart)..<Int(edge.keyStart + edge.keyCount)])
                    numbers[Int(edge.child)] = table.add(
                        parent: numbers[parent], kind: edge.kind, key: key, terminal: child.terminal,
                        catchAll: child.catchAll, edges: child.edges)
                }
            }
        }
        return SegmentIndex(table: table)
    }

    /// The case-insensitive form of a literal or segment: lower-cased; the text itself when already lower-case
    /// ASCII (no allocation on the common path).
    @inline(__always)
    static func fold(_ text: String) -> String {
        for byte in text.utf8 where byte >= 0x80 || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) {
            return text.lowercased()
        }
        return text
    }
}

/// A node of a trie being built.
struct SegmentTrieNode: Sendable {
    /// Entry whose pattern ends at this node, or -1.
    var terminal: Int32 = -1
    /// Child along a parameter edge, or -1.
    var parameter: Int32 = -1
    /// Entry whose catch-all starts at this node, or -1.
    var catchAll: Int32 = -1
    /// Whether the node has case-sensitive literal edges.
    var hasExact = false
    /// Whether the node has case-insensitive literal edges.
    var hasFolded = false

    /// The kinds of edges that leave this node.
    var edges: TrieTable.Kinds {
        var kinds: TrieTable.Kinds = []
        if hasExact { kinds.insert(.exact) }
        if hasFolded { kinds.insert(.folded) }
        if parameter >= 0 { kinds.insert(.parameter) }
        return kinds
    }
}
