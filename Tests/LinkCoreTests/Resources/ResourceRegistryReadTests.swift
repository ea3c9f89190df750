import LinkCore
import Testing

@Suite struct ResourceRegistryReadTests {
    static let registry: ResourceRegistry = {
        do {
            return try ResourceFixtures.registry(
                #"""
                [
                  {"path": "/flags/ios", "name": "iosFlags", "value": {"beta": true}},
                  {"path": "/flags/:platform", "name": "flags", "value": {"beta": false}},
                  {"path": "/nothing", "value": null},
                  {"path": "/greet/:who", "name": "greet", "compute": {"cat": ["Hello, ", {"var": "params.who"}]}},
                  {"path": "/echo/:a/*rest", "name": "echo",
                   "compute": {"merge": [[{"var": "params.a"}, {"var": "params.rest"}, {"var": "query.x"}], [{"var": "location"}]]}},
                  {"path": "/price/:n", "compute": {"*": [{"var": "params.n"}, 2]}},
                  {"path": "/broken/:n", "name": "broken", "compute": {"throw": "Broken"}},
                  {"path": "/nan", "compute": {"+": ["a", 1]}},
                  {"path": "/", "name": "root", "value": "root"},
                  {"path": "/caf%C3%A9", "name": "cafe", "value": "café"}
                ]
                """#)
        } catch {
            fatalError("fixture: \(error)")
        }
    }()

    @Test(arguments: [
        ("/flags/ios", #"{"beta": true}"#),
        ("/flags/android", #"{"beta": false}"#),
        ("/flags/ios/", #"{"beta": true}"#),
        ("//flags//android?x=1#top", #"{"beta": false}"#),
        ("myapp://flags/ios", #"{"beta": true}"#),
        ("https://example.com/flags/web", #"{"beta": false}"#),
        ("/nothing", "null"),
        ("/greet/Ada", #""Hello, Ada""#),
        ("/greet/%E6%B8%85%E5%8D%8E", #""Hello, 清华""#),
        ("/greet/a%2Fb", #""Hello, a/b""#),
        ("/echo/1/x/y?x=q&x=last", #"["1", "x/y", "last", "/echo/1/x/y?x=q&x=last"]"#),
        ("/price/21", "42"),
        ("/", #""root""#),
        ("/caf%C3%A9", #""café""#),
        ("/café", #""café""#),
    ])
    func valuesByLocation(location: String, value: String) throws {
        #expect(try ResourceFixtures.value(Self.registry, at: location) == ResourceFixtures.json(value))
    }

    @Test func aReadNamesItsResourceParamsAndQuery() throws {
        let reading = try Self.registry.read(at: Location("/echo/1/x/y?x=q&b=2&x=last"))
        #expect(reading.resource.name == "echo")
        #expect(reading.params.dictionary == ["a": "1", "rest": "x/y"])
        #expect(reading.query == ["x": "last", "b": "2"])
        #expect(
            reading.json == [
                "value": ["1", "x/y", "last", "/echo/1/x/y?x=q&b=2&x=last"],
                "resource": ["path": "/echo/:a/*rest", "name": "echo", "revision": 5],
                "params": ["a": "1", "rest": "x/y"], "query": ["x": "last", "b": "2"],
            ])
        let unnamed = try Self.registry.read(at: Location("/nothing"))
        #expect(
            unnamed.json == [
                "value": nil, "resource": ["path": "/nothing", "name": nil, "revision": 3], "params": [:], "query": [:],
            ])
    }

    @Test(arguments: ["/flags", "/flags/ios/more", "/greet", "/echo/1", "/Flags/ios", "/unknown"])
    func unmatchedLocationsAreNoMatch(location: String) throws {
        let error = #expect(throws: LinkError.self) { try Self.registry.read(at: Location(location)) }
        #expect(error?.code == .noMatch)
        #expect(error?.details["location"] == .string(try Location(location).description))
    }

    @Test func hostsOutsideTheAllowListMatchNothing() throws {
        let hosts = HostAllowList(["example.com"])
        #expect(
            try Self.registry.read(at: Location("https://example.com/flags/ios"), hosts: hosts).value == ["beta": true])
        #expect(try Self.registry.read(at: Location("myapp://flags/ios"), hosts: hosts).value == ["beta": true])
        let error = #expect(throws: LinkError.self) {
            try Self.registry.read(at: Location("https://evil.com/flags/ios"), hosts: hosts)
        }
        #expect(error?.code == .noMatch)
    }

    @Test(
        arguments: [
            ("flags", ["platform": "ios"], #"{"beta": false}"#, #"{"platform": "ios"}"#),
            ("iosFlags", [:], #"{"beta": true}"#, "{}"),
            ("greet", ["who": "a/b"], #""Hello, a/b""#, #"{"who": "a/b"}"#),
            (
                "echo", ["rest": "x//y/", "a": "1"], #"["1", "x/y", null, "/echo/1/x/y"]"#,
                #"{"a": "1", "rest": "x/y"}"#
            ),
            ("root", [:], #""root""#, "{}"),
        ] as [(String, ParameterValues, String, String)])
    func valuesByName(name: String, params: ParameterValues, value: String, expectedParams: String) throws {
        let reading = try Self.registry.read(named: name, params: params)
        #expect(reading.value == (try ResourceFixtures.json(value)))
        #expect(reading.params.json() == (try ResourceFixtures.json(expectedParams)))
        #expect(reading.query.isEmpty)
        #expect(reading.resource.name == name)
    }

    @Test func readingByNameIsThatResourceEvenWhenAnotherWouldMatchTheLocation() throws {
        // `/flags/ios` is its own resource, but by name `flags` the answer is the parameterised one.
        let reading = try Self.registry.read(named: "flags", params: ["platform": "ios"])
        #expect(reading.value == ["beta": false])
        #expect(reading.resource.pattern.description == "/flags/:platform")
    }

    @Test(
        arguments: [
            ("nope", [:], LinkError.Code.unknownName, "name", #""nope""#),
            ("echo", [:], .missingParams, "missing", #"["a", "rest"]"#),
            ("echo", ["a": "1", "rest": ""], .missingParams, "missing", #"["rest"]"#),
            ("flags", ["platform": "ios", "tab": "x", "z": "1"], .unexpectedParams, "unexpected", #"["tab", "z"]"#),
            ("iosFlags", ["platform": "ios"], .unexpectedParams, "unexpected", #"["platform"]"#),
            ("greet", ["who": "a\u{7}"], .invalidURL, "param", #""who""#),
        ] as [(String, ParameterValues, LinkError.Code, String, String)])
    func badReadsByName(name: String, params: ParameterValues, code: LinkError.Code, key: String, detail: String) throws
    {
        let error = #expect(throws: LinkError.self) { try Self.registry.read(named: name, params: params) }
        #expect(error?.code == code)
        #expect(error?.details[key] == (try ResourceFixtures.json(detail)))
    }

    @Test(arguments: [("/broken/1", #""Broken""#), ("/nan", #""NaN""#)])
    func failingRulesAreRuleErrors(location: String, type: String) throws {
        let error = #expect(throws: LinkError.self) { try Self.registry.read(at: Location(location)) }
        #expect(error?.code == .ruleError)
        #expect(error?.details["type"] == (try ResourceFixtures.json(type)))
        let byName = #expect(throws: LinkError.self) { try Self.registry.read(named: "broken", params: ["n": "1"]) }
        #expect(byName?.code == .ruleError)
    }

    @Test func precedenceIsLiteralThenParameterThenCatchAllWhateverTheOrder() throws {
        let bodies = [
            #"{"path": "/p/*rest", "value": "catchAll"}"#, #"{"path": "/p/:id", "value": "param"}"#,
            #"{"path": "/p/me", "value": "literal"}"#, #"{"path": "/p/:id/x", "value": "deep"}"#,
        ]
        for order in [bodies, bodies.reversed(), [bodies[1], bodies[3], bodies[0], bodies[2]]] {
            let registry = try ResourceFixtures.registry("[" + order.joined(separator: ",") + "]")
            #expect(try ResourceFixtures.value(registry, at: "/p/me") == "literal")
            #expect(try ResourceFixtures.value(registry, at: "/p/you") == "param")
            #expect(try ResourceFixtures.value(registry, at: "/p/you/x") == "deep")
            #expect(try ResourceFixtures.value(registry, at: "/p/you/y") == "catchAll")
            #expect(try ResourceFixtures.value(registry, at: "/p/me/x") == "deep")
        }
    }

    @Test func theListIsEveryResourceInCreationOrder() throws {
        let registry = try ResourceFixtures.registry(
            #"[{"path": "/b", "name": "b", "value": [1]}, {"path": "/a/:x", "compute": {"var": "params.x"}}]"#)
        #expect(
            registry.listJSON == [
                "resources": [
                    ["path": "/b", "name": "b", "revision": 1, "value": [1]],
                    ["path": "/a/:x", "name": nil, "revision": 2, "compute": ["var": "params.x"]],
                ]
            ])
        #expect(ResourceRegistry().listJSON == ["resources": []])
    }
}
