import LinkCore
import Testing

@Suite struct AssociationComponentsTests {
    /// A route: pattern text, name, case-insensitive, appLinks.
    typealias Row = (pattern: String, name: String?, caseInsensitive: Bool, appLinks: Bool)

    static func route(_ pattern: String, _ name: String? = nil, ci: Bool = false, app: Bool = true) -> Row {
        (pattern, name, ci, app)
    }

    static func components(_ rows: [Row]) throws -> [AssociationComponent] {
        try AssociationComponents(
            routes: rows.map {
                AssociationRoute(
                    pattern: try Pattern($0.pattern), name: $0.name, caseInsensitive: $0.caseInsensitive,
                    appLinks: $0.appLinks)
            }
        ).components
    }

    static func component(_ glob: String, _ comment: String, ci: Bool = false, exclude: Bool = false)
        -> AssociationComponent
    {
        AssociationComponent(glob: glob, comment: comment, caseInsensitive: ci, exclude: exclude)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var routes: [String]
        /// The expected globs, in order.
        var globs: [String]
        var testDescription: String { name }
    }

    static let orderings: [Case] = [
        Case(
            name: "deeper parameters first", routes: ["/users/:id", "/users/:id/posts/:postId"],
            globs: ["/users/?*/posts/?*", "/users/?*"]),
        Case(
            name: "literal before parameter", routes: ["/users/:id", "/users/me"],
            globs: ["/users/me", "/users/me/", "/users/?*"]),
        Case(
            name: "parameter before catch-all", routes: ["/docs/*path", "/docs/:id/edit"],
            globs: ["/docs/?*/edit", "/docs/?*/edit/", "/docs/?*"]),
        Case(
            name: "first segment decides", routes: ["/:a/b", "/x/:y"], globs: ["/x/?*", "/?*/b", "/?*/b/"]),
        Case(name: "longer first", routes: ["/a", "/a/b"], globs: ["/a/b", "/a/b/", "/a", "/a/"]),
        Case(name: "the root last", routes: ["/", "/a", "/:x"], globs: ["/a", "/a/", "/?*", "/"]),
        Case(
            name: "ties by bytes", routes: ["/b", "/a", "/B"], globs: ["/B", "/B/", "/a", "/a/", "/b", "/b/"]),
        Case(
            name: "catch-all longer than parameter", routes: ["/:a", "/x/*rest", "/x/:y/:z"],
            globs: ["/x/?*/?*", "/x/?*", "/?*"]),
        Case(
            name: "percent-encoding", routes: ["/café", "/hello%20world", "/a+b", "/50%25", "/x%2Fy", "/a*"],
            globs: [
                "/50%25", "/50%25/", "/a%2A", "/a%2A/", "/a+b", "/a+b/", "/caf%C3%A9", "/caf%C3%A9/", "/hello%20world",
                "/hello%20world/",
                "/x%2Fy", "/x%2Fy/",
            ]),
        Case(name: "no routes", routes: [], globs: []),
    ]

    @Test(arguments: orderings)
    func orders(_ testCase: Case) throws {
        let components = try Self.components(testCase.routes.map { Self.route($0) })
        #expect(components.map(\.glob) == testCase.globs)
    }

    @Test func inputOrderDoesNotMatter() throws {
        let patterns = ["/users/:id", "/users/me", "/docs/*path", "/docs/:id/edit", "/", "/a/b/c", "/:x/y"]
        let forward = try Self.components(patterns.map { Self.route($0) })
        let backward = try Self.components(patterns.reversed().map { Self.route($0) })
        #expect(forward == backward)
    }

    @Test func anExcludedRouteKeepsItsPlace() throws {
        let components = try Self.components([
            Self.route("/users/:id", "user", app: false), Self.route("/users/:id/posts/:postId", "userPost"),
            Self.route("/users/me", "me"),
        ])
        #expect(
            components == [
                Self.component("/users/me", "me"), Self.component("/users/me/", "me"),
                Self.component("/users/?*/posts/?*", "userPost"), Self.component("/users/?*", "user", exclude: true),
            ])
    }

    @Test func twinsFollowTheirOriginalWithItsFlags() throws {
        let components = try Self.components([Self.route("/Help", "help", ci: true, app: false)])
        #expect(
            components == [
                Self.component("/Help", "help", ci: true, exclude: true),
                Self.component("/Help/", "help", ci: true, exclude: true),
            ])
    }

    @Test func commentsAreNamesElsePatterns() throws {
        let components = try Self.components([Self.route("/café/:id"), Self.route("/a%20b"), Self.route("/n", "named")])
        #expect(components.map(\.comment) == ["/café/:id", "/a%20b", "/a%20b", "named", "named"])
    }

    @Test func onlyTheFirstOfTheSameGlobIsEmitted() throws {
        let components = try Self.components([
            Self.route("/docs/*path", "all", app: false), Self.route("/docs/:id", "one"),
        ])
        #expect(components == [Self.component("/docs/?*", "one")])
    }

    @Test func nestedPatternsUseTheirFullPattern() throws {
        let pattern = try Pattern("/users/:id").appending("posts/:postId")
        let components = AssociationComponents(routes: [AssociationRoute(pattern: pattern)]).components
        #expect(components == [Self.component("/users/?*/posts/?*", "/users/:id/posts/:postId")])
    }

    @Test(arguments: [
        ("/", "/"), ("/users/:id", "/users/?*"), ("/files/*path", "/files/?*"), ("/café", "/caf%C3%A9"),
        ("/a b/:x/*y", "/a%20b/?*/?*"), ("/%3Fq", "/%3Fq"), ("/@me", "/@me"),
    ])
    func globs(pattern: String, glob: String) throws {
        #expect(AssociationComponent.glob(of: try Pattern(pattern)) == glob)
    }

    /// A tree of 10,000 routes: every one gets its component (and literal ones their twin), in order, and the Apple
    /// file of such a table is over Apple's 128 KB, which registration refuses as `association_too_large`.
    @Test func tenThousandRoutes() throws {
        var rows: [Row] = []
        for index in 0..<5_000 {
            rows.append(Self.route("/p\(index)/:id", "r\(index)"))
            rows.append(Self.route("/p\(index)/static", "s\(index)"))
        }
        let components = try Self.components(rows)
        #expect(components.count == 15_000)
        #expect(components.first?.glob == "/p0/static")
        #expect(components[1].glob == "/p0/static/")
        #expect(components[2].glob == "/p1/static")
        // Every literal-only pattern first (more specific in its second segment), then the parameters.
        #expect(components[10_000].glob == "/p0/?*")
        #expect(components.last?.glob == "/p999/?*")
        let file = AppleAppSiteAssociation(
            appIDs: [try AppleAppID("ABCDE12345.com.example.app")],
            components: try AssociationComponents(
                routes: rows.map { AssociationRoute(pattern: try Pattern($0.pattern), name: $0.name) })
        ).encoded()
        #expect(file.count > AppleAppSiteAssociation.maximumBytes)
        #expect {
            try AppleAppSiteAssociation.checkSize(file)
        } throws: { error in
            (error as? LinkError)?.code == .associationTooLarge
                && (error as? LinkError)?.details["limit"] == .int(131_072)
                && (error as? LinkError)?.details["bytes"] == .int(file.count)
        }
    }

    @Test func questionMarksAndAsterisksInLiteralsAreNotWildcards() throws {
        let globs = try Self.components([Self.route("/what%3F/:id"), Self.route("/a*b")]).map(\.glob)
        #expect(globs == ["/what%3F/?*", "/a%2Ab", "/a%2Ab/"])
    }
}
