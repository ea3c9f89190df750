import LinkCore
import Testing

@Suite struct PatternTests {
    @Test(arguments: [
        ("/users/:id", [PatternSegment.literal("users"), .parameter("id")]),
        ("/", []),
        ("/files/*path", [.literal("files"), .catchAll("path")]),
        ("/users/:id/posts/:postId", [.literal("users"), .parameter("id"), .literal("posts"), .parameter("postId")]),
        ("//users//:id/", [.literal("users"), .parameter("id")]),
        ("/a%2Fb/c", [.literal("a/b"), .literal("c")]),
        ("/city/清华大学/:class", [.literal("city"), .literal("清华大学"), .parameter("class")]),
        ("/city/%E6%B8%85%E5%8D%8E", [.literal("city"), .literal("清华")]),
        ("/%3Aliteral/x:y/a*b", [.literal(":literal"), .literal("x:y"), .literal("a*b")]),
        ("/:_private/:A9", [.parameter("_private"), .parameter("A9")]),
    ])
    func parses(text: String, segments: [PatternSegment]) throws {
        #expect(try Pattern(text).segments == segments)
    }

    @Test(arguments: [
        ("/users/:id", "/users/:id"),
        ("/", "/"),
        ("//users//:id/", "/users/:id"),
        ("/a%2Fb", "/a%2Fb"),
        ("/city/%E6%B8%85%E5%8D%8E", "/city/清华"),
        ("/%3Aliteral/%2Astar", "/%3Aliteral/%2Astar"),
        ("/a%20b/%25", "/a%20b/%25"),
        ("/files/*path", "/files/*path"),
    ])
    func writesCanonicalText(text: String, canonical: String) throws {
        let pattern = try Pattern(text)
        #expect(pattern.description == canonical)
        #expect(try Pattern(canonical) == pattern)
    }

    @Test(arguments: [
        ("", 0, "must start with '/'"),
        ("users/:id", 0, "must start with '/'"),
        ("/users?x", 0, "'?' is not allowed"),
        ("/users/#x", 1, "'#' is not allowed"),
        ("/users/:", 1, "empty parameter name"),
        ("/files/*", 1, "empty catch-all name"),
        ("/users/:id/:id", 2, "duplicate parameter name 'id'"),
        ("/users/:id/*id", 2, "duplicate parameter name 'id'"),
        ("/files/*path/more", 1, "a catch-all must be the last segment"),
        ("/users/:id(\\d+)", 1, "must match [A-Za-z_][A-Za-z0-9_]*"),
        ("/users/:9id", 1, "must match"),
        ("/users/:i-d", 1, "must match"),
        ("/a/b%2", 1, "malformed percent-escape"),
        ("/a/%zz", 1, "malformed percent-escape"),
        ("/a/%FF", 1, "do not decode to UTF-8"),
        ("/a/%00", 1, "control characters"),
        ("/a/b\nc", 1, "control characters"),
    ])
    func rejects(text: String, position: Int, reason: String) {
        let error = #expect(throws: LinkError.self) { try Pattern(text) }
        #expect(error?.code == .invalidPattern)
        #expect(error?.details["pattern"] == .string(text))
        #expect(error?.details["position"] == .int(position))
        #expect(error?.details["reason"]?.stringValue?.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func rejectsTooManySegments() {
        let text = String(repeating: "/a", count: Pattern.maximumSegments + 1)
        let error = #expect(throws: LinkError.self) { try Pattern(text) }
        #expect(error?.details["position"] == .int(Pattern.maximumSegments))
        #expect(throws: Never.self) { try Pattern(String(repeating: "/a", count: Pattern.maximumSegments)) }
    }

    @Test func listsParameterNamesInOrder() throws {
        #expect(try Pattern("/a/:x/b/:y/*rest").parameterNames == ["x", "y", "rest"])
        #expect(try Pattern("/a").parameterNames == [])
    }

    @Test(arguments: [
        ("/u/:x", "/u/:id", true),
        ("/u/:x/*a", "/u/:id/*b", true),
        ("/u/:x", "/u/*x", false),
        ("/u/:x", "/u/x", false),
        ("/u/%3Ax", "/u/:x", false),
        ("/Users", "/users", false),
        ("/a%2Fb", "/a/b", false),
    ])
    func shapeIgnoresParameterNamesOnly(a: String, b: String, same: Bool) throws {
        #expect((try Pattern(a).shape() == Pattern(b).shape()) == same)
    }

    @Test func foldedShapeIgnoresCase() throws {
        #expect(
            try Pattern("/Users/:id").shape(caseInsensitive: true) == Pattern("/users/:x").shape(caseInsensitive: true))
        #expect(try Pattern("/Users/:id").shape() != Pattern("/users/:x").shape())
    }

    @Test func extractsParameters() throws {
        let pattern = try Pattern("/repos/:owner/:repo/contents/*path")
        let params = pattern.parameters(in: ["repos", "apple", "swift", "contents", "docs", "a b", "c"])
        #expect(params.names == ["owner", "repo", "path"])
        #expect(params.values == ["apple", "swift", "docs/a b/c"])
        #expect(params["repo"] == "swift")
        #expect(params["nope"] == nil)
        #expect(params.json() == ["owner": "apple", "repo": "swift", "path": "docs/a b/c"])
    }
}

@Suite struct PatternJoiningTests {
    @Test(arguments: [
        ("/users/:id", "posts/:postId", "/users/:id/posts/:postId"),
        ("/", "about", "/about"),
        ("/users/:id", "", "/users/:id"),
        ("/users/:id", "files/*path", "/users/:id/files/*path"),
        ("/a", "b//c/", "/a/b/c"),
    ])
    func joinsChildToParent(parent: String, child: String, joined: String) throws {
        let pattern = try Pattern(parent).appending(child)
        #expect(pattern.description == joined)
        #expect(pattern == (try Pattern(joined)))
    }

    @Test func parametersAccumulateDownAChain() throws {
        let pattern = try Pattern("/a/:one").appending("b/:two").appending(":three").appending("*four")
        #expect(pattern.parameterNames == ["one", "two", "three", "four"])
    }

    @Test(arguments: [
        ("/users/:id", "posts/:id", "/users/:id/posts/:id", 3, "duplicate parameter name 'id'"),
        ("/users/:id", "/posts", "/users/:id//posts", 2, "must not start with '/'"),
        ("/files/*path", "more", "/files/*path/more", 1, "a catch-all must be the last segment"),
        ("/users/:id", "x/:y?", "/users/:id/x/:y?", 3, "'?' is not allowed"),
    ])
    func rejectsBadChildren(parent: String, child: String, pattern: String, position: Int, reason: String) throws {
        let parentPattern = try Pattern(parent)
        let error = #expect(throws: LinkError.self) { try parentPattern.appending(child) }
        #expect(error?.code == .invalidPattern)
        #expect(error?.details["pattern"] == .string(pattern))
        #expect(error?.details["position"] == .int(position))
        #expect(error?.details["reason"]?.stringValue?.contains(reason) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("/users/:id/posts/:postId", ["users", "42", "posts", "a \"b\""]),
        ("/files/*path", ["files", "a", "b c", "d"]),
        ("/:lang/docs/*rest", ["fr", "docs", "x"]),
        ("/plain", ["plain"]),
    ])
    func writesParametersAsTheirJSON(text: String, segments: [String]) throws {
        let parameters = try Pattern(text).parameters(in: segments)
        #expect(JSONValue(writtenBy: parameters.write(to:)) == parameters.json())
        #expect(JSONValue(writtenBy: parameters.write(to:)).objectValue?.count == parameters.count)
    }
}
