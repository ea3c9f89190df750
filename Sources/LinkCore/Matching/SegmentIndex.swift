/// The frozen, non-generic part of a ``SegmentTrie``: flat nodes and literal edge tables, searched in
/// precedence order.
@usableFromInline struct SegmentIndex: Sendable {
    let nodes: [SegmentTrieNode]
    let exact: LiteralEdges
    let folded: LiteralEdges

    /// The entry index of the best match, or `nil`.
    @usableFromInline func firstIndex(matching segments: [String]) -> Int? {
        // The walk borrows the nodes and the segments as buffers: with the arrays themselves, every level of the
        // recursion retained and released them.
        let found = nodes.withUnsafeBufferPointer { nodes in
            segments.withUnsafeBufferPointer { segments in search(node: 0, depth: 0, segments, nodes) }
        }
        return found >= 0 ? Int(found) : nil
    }

    /// Depth-first search: exact literal, case-insensitive literal, parameter, catch-all. A node sits at one
    /// depth, so each node is visited at most once per lookup.
    private func search(
        node index: Int32, depth: Int, _ segments: UnsafeBufferPointer<String>,
        _ nodes: UnsafeBufferPointer<SegmentTrieNode>
    ) -> Int32 {
        let node = nodes[Int(index)]
        if depth == segments.count { return node.terminal }
        if node.hasExact {
            let child = exact.child(of: index, segments[depth])
            if child >= 0 {
                let found = search(node: child, depth: depth + 1, segments, nodes)
                if found >= 0 { return found }
            }
        }
        if node.hasFolded {
            let child = folded.child(of: index, SegmentTrieBuilder.fold(segments[depth]))
            if child >= 0 {
                let found = search(node: child, depth: depth + 1, segments, nodes)
                if found >= 0 { return found }
            }
        }
        if node.parameter >= 0 {
            let found = search(node: node.parameter, depth: depth + 1, segments, nodes)
            if found >= 0 { return found }
        }
        return node.catchAll
    }
}
