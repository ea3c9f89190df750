import LinkCore
import Testing

@Suite struct LocationBuilderTests {
    private func build(_ pattern: String, _ params: ParameterValues, _ query: [QueryItem] = []) throws -> String {
        try LocationBuilder.location(for: Pattern(pattern), params: params, query: query).description
    }

    static let cases: [(String, ParameterValues, [QueryItem], String)] = [
        ("/users/:id", ["id": "42"], [QueryItem("tab", "posts")], "/users/42?tab=posts"),
        ("/users/:id", ["id": "a/b"], [], "/users/a%2Fb"),
        ("/city/:name", ["name": "清华"], [], "/city/%E6%B8%85%E5%8D%8E"),
        ("/q/:v", ["v": "a b?#%"], [], "/q/a%20b%3F%23%25"),
        ("/q/:v", ["v": "/"], [], "/q/%2F"),
        ("/q/:v", ["v": "a+b&c=d:e@f"], [], "/q/a+b&c=d:e@f"),
        ("/files/*path", ["path": "docs/intro/a b"], [], "/files/docs/intro/a%20b"),
        ("/files/*path", ["path": "/docs//intro/"], [], "/files/docs/intro"),
        ("/", [:], [QueryItem("z", "1"), QueryItem("a", "2"), QueryItem("z", "3")], "/?z=1&a=2&z=3"),
        ("/a%2Fb/:x", ["x": "1"], [QueryItem("q", "x&y=z")], "/a%2Fb/1?q=x%26y%3Dz"),
    ]

    @Test(arguments: cases)
    func builds(pattern: String, params: ParameterValues, query: [QueryItem], expected: String) throws {
        #expect(try build(pattern, params, query) == expected)
    }

    @Test func builtLocationsMatchTheirPattern() throws {
        let pattern = try Pattern("/users/:id/files/*path")
        let location = try LocationBuilder.location(for: pattern, params: ["id": "a/b", "path": "x/y"])
        let reparsed = try Location(location.description)
        #expect(pattern.parameters(in: reparsed.segments).values == ["a/b", "x/y"])
    }

    @Test func reportsAllMissingParametersInPatternOrder() throws {
        let error = #expect(throws: LinkError.self) {
            try build("/a/:one/b/:two/:three/*four", ["two": "2", "three": ""])
        }
        #expect(error?.code == .missingParams)
        #expect(error?.details["missing"] == ["one", "three", "four"])
    }

    @Test func aCatchAllOfOnlySlashesIsMissing() {
        let error = #expect(throws: LinkError.self) { try build("/files/*path", ["path": "//"]) }
        #expect(error?.details["missing"] == ["path"])
    }

    @Test func reportsAllUnexpectedParametersInTheOrderGiven() {
        let error = #expect(throws: LinkError.self) { try build("/users/:id", ["zeta": "1", "id": "2", "alpha": "3"]) }
        #expect(error?.code == .unexpectedParams)
        #expect(error?.details["unexpected"] == ["zeta", "alpha"])
    }

    @Test func missingComesBeforeUnexpected() {
        let error = #expect(throws: LinkError.self) { try build("/users/:id", ["other": "1"]) }
        #expect(error?.code == .missingParams)
    }

    @Test func rejectsControlCharactersInValues() {
        let error = #expect(throws: LinkError.self) { try build("/users/:id", ["id": "a\nb"]) }
        #expect(error?.code == .invalidURL)
        #expect(error?.details["param"] == "id")
    }
}
