import Testing

@testable import LinkCore

@Suite struct LocationTemplateTests {
    private func render(_ template: String, _ pattern: String, _ values: [String], location: String = "/here?x=1")
        throws -> String
    {
        let pattern = try Pattern(pattern)
        let checked = try LocationTemplate(template, isLocation: true, field: "to").validated(
            against: pattern, field: "to")
        return checked.render(params: PathParameters(names: pattern.parameterNames, values: values), location: location)
    }

    static let cases: [(String, String, [String], String)] = [
        ("/users/{id}", "/u/:id", ["42"], "/users/42"),
        ("/users/{id}", "/u/:id", ["a b/c"], "/users/a%20b%2Fc"),
        ("/users/{id}?q={id}", "/u/:id", ["a b/c&d"], "/users/a%20b%2Fc&d?q=a%20b/c%26d"),
        ("/city/{name}", "/c/:name", ["清华"], "/city/%E6%B8%85%E5%8D%8E"),
        ("/login?from={location}", "/a", [], "/login?from=/here?x%3D1"),
        ("/wrap{location}", "/a", [], "/wrap/here?x=1"),
        ("https://www.example.com{location}", "/a", [], "https://www.example.com/here?x=1"),
        ("{location}", "/a", [], "/here?x=1"),
        ("/new/{rest}", "/old/*rest", ["a/b c/d"], "/new/a/b%20c/d"),
        ("/new?r={rest}", "/old/*rest", ["a/b"], "/new?r=a/b"),
        ("/static", "/a/:x", ["1"], "/static"),
        ("/x#{id}", "/a/:id", ["a&b"], "/x#a%26b"),
        ("myapp://users/{id}", "/u/:id", ["7"], "myapp://users/7"),
    ]

    @Test(arguments: cases)
    func encodesEachPlaceholderForWhereItStands(template: String, pattern: String, values: [String], expected: String)
        throws
    {
        #expect(try render(template, pattern, values) == expected)
    }

    @Test func valueTemplatesSubstituteRaw() throws {
        let template = try LocationTemplate("{id}-{location}", isLocation: false, field: "to.params.id")
            .validated(against: Pattern("/u/:id"), field: "to.params.id")
        #expect(
            template.render(params: PathParameters(names: ["id"], values: ["a/b c"]), location: "/u/a?b=c")
                == "a/b c-/u/a?b=c")
    }

    @Test func rejectsPlaceholdersThePatternDoesNotHave() throws {
        let template = try LocationTemplate("/x/{postId}", isLocation: true, field: "redirect[0].to")
        let error = #expect(throws: LinkError.self) {
            try template.validated(against: Pattern("/users/:id"), field: "redirect[0].to")
        }
        #expect(error?.code == .invalidRule)
        #expect(error?.details["placeholder"] == "postId")
        #expect(error?.details["field"] == "redirect[0].to")
    }

    @Test func listsItsParameters() throws {
        let template = try LocationTemplate("/{a}/{location}/{b}", isLocation: true, field: "to")
        #expect(template.parameterNames == ["a", "b"])
    }
}
