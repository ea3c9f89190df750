/// Builds a ``SegmentTrie``'s index: the flat nodes and the two literal tables grow as patterns are added, and
/// freezing hands them over as they are (a dictionary of children per node, re-inserted into the tables at the
/// end, cost a third of loading 100k routes).
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

    /// The frozen matcher: flat nodes and the two literal tables (case-sensitive, case-insensitive).
    func freeze() -> SegmentIndex {
        SegmentIndex(nodes: nodes, exact: exact, folded: folded)
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
    var terminal: Int32 = -1
    /// Child along a parameter edge, or -1.
    var parameter: Int32 = -1
    /// Entry whose catch-all starts at this node, or -1.
    var catchAll: Int32 = -1
    /// Whether the node has case-sensitive literal edges.
    var hasExact = false
    /// Whether the node has case-insensitive literal edges.
    var hasFolded = false
}
