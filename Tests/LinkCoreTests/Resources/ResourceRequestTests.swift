import LinkCore
import Testing

@Suite struct ResourceRequestTests {
    @Test func decodesACreateBody() throws {
        let creation = try ResourceCreation(
            json: ResourceFixtures.json(#"{"path": "/a//:id/", "name": "a.b-c_1", "value": null, "onExists": "keep"}"#))
        #expect(creation.pattern.description == "/a/:id")
        #expect(creation.name == "a.b-c_1")
        #expect(creation.content == .value(nil))
        #expect(creation.onExists == .keep)
        let computed = try ResourceCreation(json: ResourceFixtures.json(#"{"path": "/", "compute": {"var": "x"}}"#))
        #expect(computed.onExists == .fail)
        #expect(computed.name == nil)
        #expect(computed.content == (try .compute(expression: ["var": "x"])))
        let nullRule = try ResourceCreation(json: ResourceFixtures.json(#"{"path": "/n", "compute": null}"#))
        #expect(try ResourceRegistry().creating(nullRule).registry.read(at: Location("/n")).value == nil)
        let whole = try ResourceUpdate(json: ResourceFixtures.json(#"{"name": "n", "value": 1, "ifRevision": 3.0}"#))
        #expect(whole.ifRevision == 3)
    }

    @Test(
        arguments: [
            (#"[]"#, LinkError.Code.invalidRequest, "body"),
            (#"{"value": 1}"#, .invalidRequest, "path"),
            (#"{"path": null, "value": 1}"#, .invalidRequest, "path"),
            (#"{"path": 1, "value": 1}"#, .invalidRequest, "path"),
            (#"{"path": "/a"}"#, .invalidRequest, "value"),
            (#"{"path": "/a", "value": 1, "compute": true}"#, .invalidRequest, "compute"),
            (#"{"path": "/a", "value": 1, "name": null}"#, .invalidRequest, "name"),
            (#"{"path": "/a", "value": 1, "name": "a b"}"#, .invalidRequest, "name"),
            (#"{"path": "/a", "value": 1, "name": ""}"#, .invalidRequest, "name"),
            (#"{"path": "/a", "value": 1, "onExists": "overwrite"}"#, .invalidRequest, "onExists"),
            (#"{"path": "/a", "value": 1, "onExists": null}"#, .invalidRequest, "onExists"),
            (#"{"path": "/a", "value": 1, "values": 2}"#, .invalidRequest, "values"),
            (#"{"path": "a", "value": 1}"#, .invalidPattern, nil),
            (#"{"path": "/a/:id/:id", "value": 1}"#, .invalidPattern, nil),
            (#"{"path": "/a/*rest/b", "value": 1}"#, .invalidPattern, nil),
            (#"{"path": "/a%zz", "value": 1}"#, .invalidPattern, nil),
            (#"{"path": "/a", "compute": {"nope": 1}}"#, .invalidRule, nil),
            (#"{"path": "/a", "compute": {"<": [1]}}"#, .invalidRule, nil),
        ] as [(String, LinkError.Code, String?)])
    func badCreateBodies(body: String, code: LinkError.Code, field: String?) throws {
        let error = #expect(throws: LinkError.self) { try ResourceCreation(json: ResourceFixtures.json(body)) }
        #expect(error?.code == code)
        if let field { #expect(error?.details["field"] == .string(field)) }
    }

    @Test func decodesAnUpdateBody() throws {
        let byPath = try ResourceUpdate(json: ResourceFixtures.json(#"{"path": "/u/:x", "value": 1, "ifRevision": 4}"#))
        #expect(byPath.target == .pattern(try Pattern("/u/:x")))
        #expect(byPath.conditions == [.revision(4)])
        let byName = try ResourceUpdate(json: ResourceFixtures.json(#"{"name": "u", "compute": 1}"#))
        #expect(byName.target == .name("u"))
        #expect(byName.conditions.isEmpty)
    }

    @Test(
        arguments: [
            (#"{"value": 1}"#, LinkError.Code.invalidRequest, "path"),
            (#"{"path": "/a", "name": "a", "value": 1}"#, .invalidRequest, "name"),
            (#"{"path": "/a"}"#, .invalidRequest, "value"),
            (#"{"path": "/a", "value": 1, "compute": 1}"#, .invalidRequest, "compute"),
            (#"{"path": "/a", "value": 1, "ifRevision": -1}"#, .invalidRequest, "ifRevision"),
            (#"{"path": "/a", "value": 1, "ifRevision": "1"}"#, .invalidRequest, "ifRevision"),
            (#"{"path": "/a", "value": 1, "ifRevision": 1.5}"#, .invalidRequest, "ifRevision"),
            (#"{"path": "/a", "value": 1, "ifRevision": null}"#, .invalidRequest, "ifRevision"),
            (#"{"path": "/a", "value": 1, "onExists": "keep"}"#, .invalidRequest, "onExists"),
            (#"{"name": "a/b", "value": 1}"#, .invalidRequest, "name"),
            (#"{"name": null, "value": 1}"#, .invalidRequest, "name"),
            (#"{"path": "/a?", "value": 1}"#, .invalidPattern, nil),
            (#"{"path": "/a", "compute": {"nope": 1}}"#, .invalidRule, nil),
        ] as [(String, LinkError.Code, String?)])
    func badUpdateBodies(body: String, code: LinkError.Code, field: String?) throws {
        let error = #expect(throws: LinkError.self) { try ResourceUpdate(json: ResourceFixtures.json(body)) }
        #expect(error?.code == code)
        if let field { #expect(error?.details["field"] == .string(field)) }
    }

    @Test func targetsNeedExactlyOneOfPathAndName() throws {
        #expect(try ResourceTarget.parse(path: "/a/:b", name: nil) == .pattern(Pattern("/a/:b")))
        #expect(try ResourceTarget.parse(path: nil, name: "n") == .name("n"))
        for (path, name) in [(nil, nil), ("/a", "n")] as [(String?, String?)] {
            let error = #expect(throws: LinkError.self) { try ResourceTarget.parse(path: path, name: name) }
            #expect(error?.code == .invalidRequest)
        }
        #expect(throws: LinkError.self) { try ResourceTarget.parse(path: nil, name: "bad name") }
        #expect(throws: LinkError.self) { try ResourceTarget.parse(path: "/a/:", name: nil) }
    }
}
