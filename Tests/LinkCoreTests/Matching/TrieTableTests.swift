import Testing

@testable import LinkCore

/// The frozen table's own rules, which a trie built from patterns reaches only by chance: a parameter child is
/// found from its parent's slot onward, wrapping past the end of the table; keys differ by kind as well as bytes.
@Suite struct TrieTableTests {
    private func add(
        _ table: inout TrieTable, _ parent: Int32, _ kind: TrieTable.Kinds, _ key: String, terminal: Int32
    ) -> Int32 {
        var key = key
        return key.withUTF8 {
            table.add(
                parent: parent, kind: kind, key: UnsafeRawBufferPointer($0), terminal: terminal, catchAll: -1,
                edges: [])
        }
    }

    @Test func aParameterChildAfterTheLastSlotIsFoundFromTheStart() {
        // Fill the root's literal children until one lands in the last slot, then give
        // that node a parameter child: it must go to slot 0 or after, and be found there.
        var table = TrieTable(edges: 3)
        var lastSlot: Int32 = -1
        var names: [String] = []
        for index in 0..<200 where lastSlot < 0 {
            var probe = TrieTable(edges: 3)
            let slot = add(&probe, TrieTable.root, .exact, "n\(index)", terminal: 1)
            if slot == probe.capacity - 1 {
                names.append("n\(index)")
                lastSlot = add(&table, TrieTable.root, .exact, "n\(index)", terminal: 1)
            }
        }
        #expect(lastSlot == Int32(table.capacity - 1))
        let parameter = add(&table, lastSlot, .parameter, "", terminal: 7)
        #expect(parameter < lastSlot)
        table.withNodes { nodes in
            #expect(table.parameterChild(of: lastSlot, in: nodes) == parameter)
            #expect(table.node(parameter, in: nodes).terminal == 7)
            #expect(table.child(of: TrieTable.root, .exact, names[0], in: nodes) == lastSlot)
        }
    }

    /// The scan for a parameter child passes a literal child of the same parent that sits in between.
    @Test func aParameterChildIsFoundPastALiteralSiblingRightAfterItsParent() throws {
        var table = TrieTable(edges: 8)
        let parent = add(&table, TrieTable.root, .exact, "parent", terminal: 1)
        let afterParent = (Int(parent) + 1) % table.capacity
        // A literal child of `parent` whose hash lands just after it (tried in fresh tables of the same size).
        let name = try #require(
            (0..<1_000).lazy.map { "c\($0)" }.first { name in
                var probe = TrieTable(edges: 8)
                let probeParent = add(&probe, TrieTable.root, .exact, "parent", terminal: 1)
                return add(&probe, probeParent, .exact, name, terminal: 2) == afterParent
            })
        let literal = add(&table, parent, .exact, name, terminal: 2)
        #expect(Int(literal) == afterParent)
        let parameter = add(&table, parent, .parameter, "", terminal: 3)
        table.withNodes { nodes in
            #expect(table.parameterChild(of: parent, in: nodes) == parameter)
            #expect(table.node(parameter, in: nodes).terminal == 3)
            #expect(table.child(of: parent, .exact, name, in: nodes) == literal)
        }
    }

    @Test func theSameBytesUnderTheSameParentAreDifferentEdgesByKind() {
        var table = TrieTable(edges: 4)
        let exact = add(&table, TrieTable.root, .exact, "abc", terminal: 1)
        let folded = add(&table, TrieTable.root, .folded, "abc", terminal: 2)
        let under = add(&table, exact, .exact, "abc", terminal: 3)
        table.withNodes { nodes in
            #expect(table.child(of: TrieTable.root, .exact, "abc", in: nodes) == exact)
            #expect(table.child(of: TrieTable.root, .folded, "abc", in: nodes) == folded)
            #expect(table.child(of: exact, .exact, "abc", in: nodes) == under)
            #expect(table.child(of: folded, .exact, "abc", in: nodes) == -1)
            #expect(table.child(of: TrieTable.root, .exact, "abd", in: nodes) == -1)
            #expect(table.node(under, in: nodes).terminal == 3)
        }
    }

    /// Keys longer than 16 bytes keep their length with their bytes: one that is a prefix of another, or longer
    /// than the slot's length field could say (16 MiB), is still told apart.
    @Test func longKeysOfDifferentLengthsAreDifferent() {
        let huge = String(repeating: "x", count: 1 << 24 | 3)
        var table = TrieTable(edges: 3)
        let short = add(&table, TrieTable.root, .exact, String(huge.prefix(40)), terminal: 1)
        let long = add(&table, TrieTable.root, .exact, huge, terminal: 2)
        table.withNodes { nodes in
            #expect(table.child(of: TrieTable.root, .exact, String(huge.prefix(40)), in: nodes) == short)
            #expect(table.child(of: TrieTable.root, .exact, huge, in: nodes) == long)
            #expect(table.child(of: TrieTable.root, .exact, String(huge.prefix(41)), in: nodes) == -1)
            #expect(table.child(of: TrieTable.root, .exact, String(huge.dropLast()), in: nodes) == -1)
        }
    }

    @Test func keysLongerThanSixteenBytesCompareWhole() {
        let long = String(repeating: "0123456789abcdef", count: 3)
        var table = TrieTable(edges: 3)
        let a = add(&table, TrieTable.root, .exact, long + "a", terminal: 1)
        let b = add(&table, TrieTable.root, .exact, long + "b", terminal: 2)
        table.withNodes { nodes in
            #expect(table.child(of: TrieTable.root, .exact, long + "a", in: nodes) == a)
            #expect(table.child(of: TrieTable.root, .exact, long + "b", in: nodes) == b)
            #expect(table.child(of: TrieTable.root, .exact, long + "c", in: nodes) == -1)
            #expect(table.child(of: TrieTable.root, .exact, long, in: nodes) == -1)
        }
    }
}
