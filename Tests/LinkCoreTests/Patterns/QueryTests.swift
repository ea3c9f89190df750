import Testing

@testable import LinkCore

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
        // As a request's query is parsed: a part of its target, read in place.
        let target = "/a/b?" + raw + "#end"
        let start = target.utf8.index(target.utf8.startIndex, offsetBy: 5)
        let end = target.utf8.index(start, offsetBy: raw.utf8.count)
        #expect(try Query(parsing: target[start..<end]).items == items)
    }

    @Test func mapKeepsTheLastDuplicateAtItsFirstPosition() throws {
        let query = try Query(parsing: "a=1&b=2&a=3")
        #expect(query.map.keys.elements == ["a", "b"])
        #expect(query.map["a"] == "3")
    }

    @Test(arguments: [
        ([QueryItem("tab", "posts")], "tab=posts"),
        ([QueryItem("k", "")], "k="),
        ([QueryItem("k", "", bare: true)], "k"),
        ([QueryItem("", "x"), QueryItem("k", "", bare: true), QueryItem("e", "")], "=x&k&e="),
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

    /// A query reads back as written: an item without `=` stays bare, an empty value after `=` keeps its `=`
    /// (API.md §2 gives both the value `""`); an item with neither key nor value is not written, nor is a `?` for
    /// a query of only such items.
    @Test func emptyValuesAreWrittenBackAsTheyCame() throws {
        #expect(try Query(parsing: "flag&q=&r=1").encoded == "flag&q=&r=1")
        #expect(try Query(parsing: "flag").items == [QueryItem("flag", "")])
        #expect(try Location("/search?q=&flag").description == "/search?q=&flag")
        #expect(Location(segments: ["search"], query: Query([QueryItem("", "")])).description == "/search")
    }

    /// A request's own query names the key of a value it cannot decode; a location's query does not (its keys are
    /// not the request's fields).
    @Test func aRequestQueryNamesTheMalformedField() {
        #expect { try Query(parsingRequestQuery: "a=1&url=/x%zz") } throws: {
            let error = $0 as? LinkError
            return error?.code == .invalidURL && error?.details["field"] == "url"
                && error?.details["component"] == "/x%zz"
        }
        #expect { try Query(parsing: "a=1&url=/x%zz") } throws: {
            let error = $0 as? LinkError
            return error?.code == .invalidURL && error?.details["field"] == nil
        }
        // A malformed key names no field: there is none to name.
        #expect { try Query(parsingRequestQuery: "%zz=1") } throws: { ($0 as? LinkError)?.details["field"] == nil }
    }

    /// An answer's `query` is ``Query/map`` (last duplicate wins, names in order of first appearance), written
    /// without building the map up to 16 items and from the map past that.
    @Test(arguments: [
        "", "a=1", "a=1&b=2&a=3", "x&tab=posts&x=2&tab=all&x", "b=1&a=2&b=3&c&a=4&b=5",
        (0..<20).map { "k\($0 % 7)=\($0)" }.joined(separator: "&"),
    ])
    func writesItsMapInOrder(text: String) throws {
        let query = try Query(parsing: text)
        var writer = JSONWriter()
        query.writeMap(to: &writer)
        var expected = JSONWriter()
        expected.stringObject(query.map.lazy.map { ($0.key, $0.value) })
        #expect(writer.bytes == expected.bytes)
    }

    @Test func writesTheLastValueAtTheFirstPlace() throws {
        var writer = JSONWriter()
        try Query(parsing: "b=1&a=2&b=3&c&a=4&b=5").writeMap(to: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"b":"5","a":"4","c":""}"#)
    }
}
