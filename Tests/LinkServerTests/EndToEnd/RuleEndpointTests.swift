import LinkCore
import LinkTestSupport
import Testing

@testable import LinkServer

@Suite struct RuleEndpointTests {
    @Test(arguments: [
        (#"{"rule": {"+": [1, 2]}}"#, "3"),
        (#"{"rule": {"/": [1, 2]}}"#, "0.5"),
        (#"{"rule": {"var": "a.b"}, "data": {"a": {"b": [true, null]}}}"#, "[true,null]"),
        (#"{"rule": {"if": [{">=": [{"var": "age"}, 18]}, "adult", "minor"]}, "data": {"age": 20}}"#, #""adult""#),
        (#"{"rule": {"!": {"var": "context.loggedIn"}}, "data": {"context": {"loggedIn": true}}}"#, "false"),
        (#"{"rule": 7}"#, "7"),
    ])
    func evaluatesRules(body: String, result: String) throws {
        try withServer { (server) throws in
            let reply = try server.client().request("POST", "/v1/rules/evaluate", body: Array(body.utf8))
            #expect(reply.status == 200)
            #expect(reply.json == ["result": try JSONParser.parse(result)])
        }
    }

    @Test func failingEvaluationIsRuleErrorWithTheType() throws {
        try withServer { (server) throws in
            let client = server.client()
            let nan = try client.post("/v1/rules/evaluate", ["rule": ["+": ["a", 1]]])
            #expect(nan.status == 422)
            #expect(nan.errorCode == "rule_error")
            #expect(nan.errorDetails?["type"] == "NaN")
            let thrown = try client.post("/v1/rules/evaluate", ["rule": ["throw": "Boom"]])
            #expect(thrown.status == 422)
            #expect(thrown.errorDetails?["type"] == "Boom")
        }
    }

    /// Every case of the contract's JSON Logic suites through the playground: a result is 200 with that result; an
    /// expected error is 422 `rule_error` with the suite's type (`"Invalid Arguments"` too, also when it is found
    /// before the data is read), but for an unknown operator, 400 `invalid_rule` (§1).
    @Test func theConformanceSuitesPassThroughTheEndpoint() throws {
        let cases = try JSONLogicSuites.allCases()
        #expect(cases.count == JSONLogicSuites.caseCount)
        try withServer { (server) throws in
            let client = server.client()
            var misses: [String] = []
            for testCase in cases {
                let reply = try client.post("/v1/rules/evaluate", ["rule": testCase.rule, "data": testCase.data])
                let passed: Bool
                switch testCase.expectation {
                case .result(let expected):
                    passed =
                        reply.status == 200
                        && reply.json?["result"].map { JSONLogicSuites.sameValue(expected, $0) } == true
                case .error(let type) where type == "Unknown Operator":
                    passed =
                        reply.status == 400 && reply.errorCode == "invalid_rule" && reply.errorDetails?["type"] == type
                case .error(let type):
                    passed =
                        reply.status == 422 && reply.errorCode == "rule_error" && reply.errorDetails?["type"] == type
                }
                if !passed { misses.append("\(testCase): \(reply.status) \(reply.text)") }
            }
            #expect(
                misses.isEmpty, Comment(rawValue: "\(misses.count) cases: " + misses.prefix(20).joined(separator: "\n"))
            )
        }
    }

    @Test func malformedRulesAreInvalidRule() throws {
        try withServer { (server) throws in
            let reply = try server.client().post("/v1/rules/evaluate", ["rule": ["nope": [1]]])
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_rule")
            #expect(reply.errorDetails?["operator"] == "nope")
            // A shape the operator never accepts is a failing evaluation here (a route with it is refused: 400).
            let shape = try server.client().post("/v1/rules/evaluate", ["rule": [">": [1]]])
            #expect(shape.status == 422)
            #expect(shape.errorCode == "rule_error")
            #expect(shape.errorDetails?["type"] == "Invalid Arguments")
            #expect(shape.errorDetails?["operator"] == ">")
            let route = try server.client().post(
                "/v1/routes", ["path": "/guarded", "redirect": [["when": [">": [1]], "action": "intercept"]]])
            #expect(route.status == 400)
            #expect(route.errorCode == "invalid_rule")
            #expect(route.errorDetails?["type"] == "Invalid Arguments")
        }
    }

    @Test func badBodiesAreRejected() throws {
        try withServer { (server) throws in
            let client = server.client()
            #expect(try client.post("/v1/rules/evaluate", ["data": 1]).errorCode == "invalid_request")
            #expect(try client.post("/v1/rules/evaluate", ["rule": 1, "extra": 1]).errorCode == "invalid_request")
            #expect(try client.post("/v1/rules/evaluate", [1]).errorCode == "invalid_request")
            let broken = try client.request("POST", "/v1/rules/evaluate", body: Array("{\"rule\":".utf8))
            #expect(broken.status == 400)
            #expect(broken.errorCode == "invalid_json")
            let empty = try client.request("POST", "/v1/rules/evaluate", body: [])
            #expect(empty.errorCode == "invalid_json")
            let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
            let tooDeep = try client.request("POST", "/v1/rules/evaluate", body: Array(#"{"rule": \#(deep)}"#.utf8))
            #expect(tooDeep.errorCode == "invalid_json")
            let text = try client.request(
                "POST", "/v1/rules/evaluate", body: Array("rule".utf8), headers: ["Content-Type": "text/plain"])
            #expect(text.status == 415)
            #expect(text.errorCode == "unsupported_media_type")
            let invalidUTF8 = try client.request("POST", "/v1/rules/evaluate", body: [0x7B, 0xFF, 0x7D])
            #expect(invalidUTF8.errorCode == "invalid_json")
        }
    }

    @Test func readTokenGuardsThePlayground() throws {
        try withServer({ $0.readToken = "r" }) { (server) throws in
            let client = server.client()
            let denied = try client.post("/v1/rules/evaluate", ["rule": 1])
            #expect(denied.status == 401)
            #expect(denied.errorCode == "unauthorized")
            #expect(denied.header("WWW-Authenticate") == "Bearer")
            #expect(
                try client.post("/v1/rules/evaluate", ["rule": 1], headers: ["Authorization": "Bearer r"]).status == 200
            )
        }
    }
}

extension RuleEndpointTests {
    @Test func runawayRulesAreRefusedNotRun() throws {
        try withServer { (server) throws in
            let rule: JSONValue = [
                "reduce": [["var": "n"], ["merge": [["var": "accumulator"], ["var": "accumulator"]]], [1]]
            ]
            let reply = try server.client().post(
                "/v1/rules/evaluate", ["rule": rule, "data": ["n": .array((0..<40).map(JSONValue.int))]])
            #expect(reply.status == 422)
            #expect(reply.errorCode == "rule_error")
            #expect(reply.errorDetails?["type"] == "Evaluation Limit")
            #expect(try server.client().get("/healthz").status == 200)
        }
    }

    /// Two 4 KB requests that stopped the process: a value nested a million levels deep (its writing and freeing
    /// overflowed the thread's stack), and nested maps answering gigabytes. Each is 422, and the server stays up.
    @Test func valuesTooDeepOrTooLargeToAnswerAreRefused() throws {
        try withServer { (server) throws in
            let thousand = JSONValue.array(Array(repeating: 0, count: 1000))
            let deep: JSONValue = [
                "reduce": [["merge": ["map": [thousand, thousand]]], [["var": "accumulator"]], 0]
            ]
            let large: JSONValue = ["map": [thousand, ["map": [thousand, thousand]]]]
            for rule in [deep, large] {
                let reply = try server.client().post("/v1/rules/evaluate", ["rule": rule])
                #expect(reply.status == 422)
                #expect(reply.errorCode == "rule_error")
                #expect(reply.errorDetails?["type"] == "Evaluation Limit")
            }
            #expect(try server.client().get("/healthz").status == 200)
        }
    }
}
