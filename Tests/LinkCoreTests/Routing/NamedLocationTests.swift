import LinkCore
import Testing

@Suite struct NamedLocationTests {
    @Test func decodesParamsAndQuery() throws {
        let named = try NamedLocation(
            json: [
                "name": "user", "params": ["id": 42, "flag": true, "x": 1.5, "s": "a/b"], "query": ["tab": "posts"],
            ])
        #expect(named.name == "user")
        #expect(named.params == ["id": "42", "flag": "true", "x": "1.5", "s": "a/b"])
        #expect(named.query == [QueryItem("tab", "posts")])
    }

    /// One number is one text however it was written: as JavaScript's `String(value)` writes it.
    @Test func aNumberIsItsTextHoweverWritten() throws {
        let named = try NamedLocation(
            json: try JSONParser.parse(
                #"{"name": "n", "params": {"a": 1e2, "b": 100.0, "c": 1.50, "d": -0.5, "e": 1e-7}, "query": {"q": 2.0}}"#
            ))
        #expect(named.params == ["a": "100", "b": "100", "c": "1.5", "d": "-0.5", "e": "1e-7"])
        #expect(named.query == [QueryItem("q", "2")])
    }

    static let queries: [(JSONValue, [QueryItem])] = [
        (["a": "1", "b": 2], [QueryItem("a", "1"), QueryItem("b", "2")]),
        (["tag": ["x", "y"], "z": ""], [QueryItem("tag", "x"), QueryItem("tag", "y"), QueryItem("z", "")]),
        ([["b", "1"], ["a", "2"], ["b", "3"]], [QueryItem("b", "1"), QueryItem("a", "2"), QueryItem("b", "3")]),
        (nil, []),
    ]

    @Test(arguments: queries)
    func decodesQueriesAsObjectsOrPairs(query: JSONValue, items: [QueryItem]) throws {
        #expect(try NamedLocation(json: ["name": "n", "query": query]).query == items)
    }

    static let invalid: [(JSONValue, String)] = [
        (["params": [:]], "name"),
        (["name": "n", "params": []], "params"),
        (["name": "n", "params": ["a": nil]], "params.a"),
        (["name": "n", "params": ["a": ["x"]]], "params.a"),
        (["name": "n", "query": "a=1"], "query"),
        (["name": "n", "query": [["a"]]], "query[0]"),
        (["name": "n", "query": [[1, "a"]]], "query[0]"),
        (["name": "n", "query": ["a": [["x"]]]], "query.a[0]"),
        (["name": "n", "extra": 1], "extra"),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidBodies(json: JSONValue, field: String) {
        let error = #expect(throws: LinkError.self) { try NamedLocation(json: json) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.details["field"] == .string(field), "\(String(describing: error))")
    }
}
