/// The frozen, non-generic part of a ``SegmentTrie``: its nodes in one ``TrieTable``, searched in precedence
/// order.
@usableFromInline struct SegmentIndex: Sendable {
    let table: TrieTable

    /// The entry index of the best match, or `nil`.
    @usableFromInline func firstIndex(matching segments: [String]) -> Int? {
        // The walk borrows the nodes and the segments as buffers: with the arrays themselves, every level of the
        // recursion retained and released them.
        let found = table.withNodes { nodes in
            segments.withUnsafeBufferPointer { segments in search(node: TrieTable.root, depth: 0, segments, nodes) }
        }
        return found >= 0 ? Int(found) : nil
    }

    /// Depth-first search: exact literal, case-insensitive literal, parameter, catch-all. A node sits at one
    /// depth, so each node is visited at most once per lookup.
    private func search(
        node index: Int32, depth: Int, _ segments: UnsafeBufferPointer<String>,
        _ nodes: UnsafeBufferPointer<TrieTable.Slot>
    ) -> Int32 {
        let node = table.node(index, in: nodes)
        if depth == segments.count { return node.terminal }
        if node.has(.exact) {
            let child = table.child(of: index, .exact, segments[depth], in: nodes)
            if child >= 0 {
                let found = search(node: child, depth: depth + 1, segments, nodes)
                if found >= 0 { return found }
            }
        }
        if node.has(.folded) {
            let child = table.child(of: index, .folded, SegmentTrieBuilder.fold(segments[depth]), in: nodes)
            if child >= 0 {
                let found = search(node: child, depth: depth + 1, segments, nodes)
                if found >= 0 { return found }
            }
        }
        if node.has(.parameter) {
            let child = table.parameterChild(of: index, in: nodes)
            let found = search(node: child, depth: depth + 1, segments, nodes)
            if found >= 0 { return found }
        }
        return node.catchAll
    }
}
