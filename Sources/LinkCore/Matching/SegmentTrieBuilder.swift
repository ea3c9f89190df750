/// The mutable tree a ``SegmentTrie`` is built from, frozen into flat arrays and hash tables.
struct SegmentTrieBuilder {
    private struct Node {
        var exact: [String: Int32] = [:]
        var folded: [String: Int32] = [:]
        var parameter: Int32 = -1
        var catchAll: Int32 = -1
        var terminal: Int32 = -1
    }

    private var nodes = [Node()]

    /// Adds the path of `pattern`, ending in `entry`; a slot already taken keeps its first entry.
    mutating func insert(_ pattern: Pattern, entry: Int32, caseInsensitive: Bool) {
        var current = 0
        for segment in pattern.segments {
            switch segment {
            case .literal(let text):
                if caseInsensitive {
                    let key = SegmentTrieBuilder.fold(text)
                    current = child(of: current, existing: nodes[current].folded[key]) { $0.folded[key] = $1 }
                } else {
                    current = child(of: current, existing: nodes[current].exact[text]) { $0.exact[text] = $1 }
                }
            case .parameter:
                let existing = nodes[current].parameter
                current = child(of: current, existing: existing >= 0 ? existing : nil) { $0.parameter = $1 }
            case .catchAll:
                if nodes[current].catchAll < 0 { nodes[current].catchAll = entry }
                return
            }
        }
        if nodes[current].terminal < 0 { nodes[current].terminal = entry }
    }

    private mutating func child(of parent: Int, existing: Int32?, link: (inout Node, Int32) -> Void) -> Int {
        if let existing { return Int(existing) }
        let index = Int32(nodes.count)
        nodes.append(Node())
        link(&nodes[parent], index)
        return Int(index)
    }

    /// The frozen matcher: flat nodes and the two literal tables (case-sensitive, case-insensitive).
    func freeze() -> SegmentIndex {
        var exact = LiteralEdges(capacity: nodes.reduce(0) { $0 + $1.exact.count })
        var folded = LiteralEdges(capacity: nodes.reduce(0) { $0 + $1.folded.count })
        var frozen: [SegmentTrieNode] = []
        frozen.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() {
            SegmentTrieBuilder.insert(node.exact, from: Int32(index), into: &exact)
            SegmentTrieBuilder.insert(node.folded, from: Int32(index), into: &folded)
            frozen.append(
                .init(
                    terminal: node.terminal, parameter: node.parameter, catchAll: node.catchAll,
                    hasExact: !node.exact.isEmpty, hasFolded: !node.folded.isEmpty))
        }
        return SegmentIndex(nodes: frozen, exact: exact, folded: folded)
    }

    /// Adds a node's literal edges to `table`, sorted so that the table's layout does not depend on dictionary
    /// order (most nodes have one edge: nothing to sort).
    private static func insert(_ edges: [String: Int32], from parent: Int32, into table: inout LiteralEdges) {
        if edges.count == 1, let (key, child) = edges.first {
            table.insert(parent: parent, key: key, child: child)
            return
        }
        for (key, child) in edges.sorted(by: { $0.key < $1.key }) {
            table.insert(parent: parent, key: key, child: child)
        }
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

/// A frozen trie node: plain integers, so reading one costs no reference counting.
struct SegmentTrieNode: Sendable {
    /// Entry whose pattern ends at this node, or -1.
    var terminal: Int32
    /// Child along a parameter edge, or -1.
    var parameter: Int32
    /// Entry whose catch-all starts at this node, or -1.
    var catchAll: Int32
    /// Whether the node has case-sensitive literal edges.
    var hasExact: Bool
    /// Whether the node has case-insensitive literal edges.
    var hasFolded: Bool
}
