import LinkCore
import Testing

@Suite struct QueryTests {
    @Test(arguments: [
        ("tab=posts", [QueryItem("tab", "posts")]),
        ("a=1&b=2&a=3", [QueryItem("a", "1"), QueryItem("b", "2"), QueryItem("a", "3")]),
        ("k", [QueryItem("k", "")]),
        ("k=", [QueryItem("k", "")]),
        ("a=b=c", [QueryItem("a", "b=c")]),
        ("a+b=c+d", [QueryItem("a+b", "c+d")]),
        ("q=%E6%B8%85%E5%8D%8E&r=清华", [QueryItem("q", "清华"), QueryItem("r", "清华")]),
        ("a%26b=c%3Dd", [QueryItem("a&b", "c=d")]),
        ("a=1&&b=2&", [QueryItem("a", "1"), QueryItem("b", "2")]),
        ("=x", [QueryItem("", "x")]),
        ("=&a=1&==", [QueryItem("a", "1"), QueryItem("", "=")]),
        ("", []),
        ("from=/users/42?tab%3Dposts", [QueryItem("from", "/users/42?tab=posts")]),
    ])
    func parses(raw: String, items: [QueryItem]) throws {
        #expect(try Query(parsing: raw).items == items)
    }

    @Test func mapKeepsTheLastDuplicateAtItsFirstPosition() throws {
        let query = try Query(parsing: "a=1&b=2&a=3")
        #expect(query.map.keys.elements == ["a", "b"])
        #expect(query.map["a"] == "3")
    }

    @Test(arguments: [
        ([QueryItem("tab", "posts")], "tab=posts"),
        ([QueryItem("k", "")], "k"),
        ([QueryItem("a&b", "c=d+e f")], "a%26b=c%3Dd%2Be%20f"),
        ([QueryItem("from", "/users/42?tab=posts")], "from=/users/42?tab%3Dposts"),
        ([QueryItem("q", "清华")], "q=%E6%B8%85%E5%8D%8E"),
        ([QueryItem("a", "1"), QueryItem("a", "2")], "a=1&a=2"),
        ([QueryItem("h", "#x%")], "h=%23x%25"),
        ([], ""),
    ])
    func encodes(items: [QueryItem], encoded: String) throws {
        let query = Query(items)
        #expect(query.encoded == encoded)
        #expect(try Query(parsing: encoded) == query)
    }
}
