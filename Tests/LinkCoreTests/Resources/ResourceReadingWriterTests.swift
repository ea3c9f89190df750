import LinkCore
import OrderedCollections
import Testing

@Suite struct ResourceReadingWriterTests {
    /// The streaming writer must produce exactly what the tree rendering produces.
    static let cases: [(JSONValue, String?)] = [(.null, nil), (["a": [1, 2.5, "x\""]], "flags"), ("清华", "n")]

    @Test(arguments: 0..<3)
    func writerMatchesTheTree(index: Int) throws {
        let (value, name) = Self.cases[index]
        let reading = ResourceReading(
            value: value,
            resource: Resource(
                pattern: try Pattern("/flags/:platform"), name: name, content: .value(value), revision: 7),
            params: PathParameters(names: ["platform"], values: ["ios/x"]), query: ["q": "1", "r": ""])
        var writer = JSONWriter()
        reading.write(to: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == reading.json.encodedString())
    }
}
