import LinkCore
import Testing

@testable import LinkServer

/// `/v1/resources` over HTTP: shapes, statuses, entity tags, preconditions and errors (API.md §4).
@Suite struct ResourceEndpointTests {
    /// A read with `If-None-Match` naming its `ETag` is 304 with the tag and no body (RFC 9110 §13.1.2): by
    /// location, by name, the list; a write moves the tag and the next read is a 200 again.
    @Test func readsAnswer304WhileTheRevisionIsTheOneHeld() throws {
        try withServer { server in
            let client = server.client()
            #expect(try client.post("/v1/resources", ["path": "/flags/:p", "name": "flags", "value": 1]).status == 201)
            for target in ["/v1/resources?loc=/flags/ios", "/v1/resources?name=flags&p=ios", "/v1/resources"] {
                let first = try client.get(target)
                let tag = try #require(first.header("ETag"))
                let again = try client.get(target, headers: ["If-None-Match": tag])
                #expect(again.status == 304, "\(target)")
                #expect(again.header("ETag") == tag)
                #expect(again.body.isEmpty)
                #expect(again.header("Content-Length") == String(first.body.count))
                #expect(try client.get(target, headers: ["If-None-Match": "W/\(tag), \"x\""]).status == 304)
                let other = try client.get(target, headers: ["If-None-Match": #""999""#])
                #expect(other.status == 200, "\(other.status) \(other.text)")
            }
            let held = try #require(try client.get("/v1/resources?loc=/flags/ios").header("ETag"))
            #expect(try client.request("PATCH", "/v1/resources", json: ["name": "flags", "value": 2]).status == 200)
            let changed = try client.get("/v1/resources?loc=/flags/ios", headers: ["If-None-Match": held])
            #expect(changed.status == 200)
            #expect(changed.json?["value"] == 2)
        }
    }

    /// A list larger than what the daemon copies (``Daemon/lentBodySize``) is kept and lent to libmicrohttpd: every
    /// client, several at once and reading after one another, gets it whole, and a write is seen at once.
    @Test func aLargeListIsSentWholeToEveryClientAndFollowsWrites() throws {
        try withServer { server in
            let writer = server.client()
            let value = JSONValue.string(String(repeating: "v", count: 2_000))
            for number in 0..<40 {
                #expect(
                    try writer.post("/v1/resources", ["path": .string("/big/\(number)"), "value": value]).status == 201)
            }
            func expectList(of count: Int, revision: Int, _ reply: HTTPClient.Reply) {
                #expect(reply.status == 200)
                #expect(reply.body.count > Daemon.lentBodySize)
                #expect(reply.json?["resources"]?.arrayValue?.count == count)
                #expect(reply.header("ETag") == "\"\(revision)\"")
            }
            // The requests are all sent before any answer is read, so their answers are held at once. A query without
            // `loc` or `name` (a cache-buster) asks for the same list.
            let readers = (0..<4).map { _ in server.client() }
            let targets = ["/v1/resources", "/v1/resources?", "/v1/resources?_=1", "/v1/resources?x=2&y"]
            for _ in 0..<3 {
                for (reader, target) in zip(readers, targets) {
                    try reader.sendRaw(Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                }
                let replies = try readers.map { try $0.readResponse() }
                for reply in replies { expectList(of: 40, revision: 40, reply) }
                #expect(Set(replies.map(\.body)).count == 1)
            }
            let head = try writer.request("HEAD", "/v1/resources")
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.header("Content-Length") == String(try writer.get("/v1/resources").body.count))
            // A 304 of the large list, on a connection that goes on: no content is sent with it.
            let tag = try #require(head.header("ETag"))
            let notModified = try writer.get("/v1/resources?_=2", headers: ["If-None-Match": tag])
            #expect(notModified.status == 304)
            #expect(notModified.header("Content-Length") == head.header("Content-Length"))
            #expect(try writer.get("/healthz").status == 200)
            #expect(try writer.request("DELETE", "/v1/resources?path=/big/0").status == 204)
            for (reader, target) in zip(readers, targets) { expectList(of: 39, revision: 41, try reader.get(target)) }
        }
    }

    @Test func createReadListUpdateDelete() throws {
        try withServer { server in
            let client = server.client()
            let empty = try client.get("/v1/resources")
            #expect(empty.status == 200)
            #expect(empty.json == ["resources": []])
            #expect(empty.header("ETag") == #""0""#)

            let created = try client.post(
                "/v1/resources", ["path": "/flags/:platform", "name": "flags", "value": ["beta": true]])
            #expect(created.status == 201)
            #expect(created.header("Content-Type") == "application/json; charset=utf-8")
            #expect(created.header("ETag") == #""1""#)
            #expect(
                created.json == ["path": "/flags/:platform", "name": "flags", "revision": 1, "value": ["beta": true]])

            let computed = try client.post(
                "/v1/resources", ["path": "/greet/:who", "compute": ["cat": ["Hi ", ["var": "params.who"]]]])
            #expect(computed.status == 201)
            #expect(
                computed.json == [
                    "path": "/greet/:who", "name": nil, "revision": 2,
                    "compute": ["cat": ["Hi ", ["var": "params.who"]]],
                ])

            let byLoc = try client.get("/v1/resources?loc=%2Fflags%2Fios%3Ftab%3Dx")
            #expect(byLoc.status == 200)
            #expect(byLoc.header("ETag") == #""1""#)
            #expect(
                byLoc.json == [
                    "value": ["beta": true], "resource": ["path": "/flags/:platform", "name": "flags", "revision": 1],
                    "params": ["platform": "ios"], "query": ["tab": "x"],
                ])
            let unencoded = try client.get("/v1/resources?loc=/greet/Ada")
            #expect(unencoded.json?["value"] == "Hi Ada")
            #expect(unencoded.json?["resource"] == ["path": "/greet/:who", "name": nil, "revision": 2])

            let byName = try client.get("/v1/resources?name=flags&platform=android")
            #expect(byName.status == 200)
            #expect(byName.header("ETag") == #""1""#)
            #expect(
                byName.json == [
                    "value": ["beta": true], "resource": ["path": "/flags/:platform", "name": "flags", "revision": 1],
                    "params": ["platform": "android"], "query": [:],
                ])

            let list = try client.get("/v1/resources?ignored=1")
            #expect(list.header("ETag") == #""2""#)
            #expect(list.json?["resources"]?.arrayValue?.count == 2)
            #expect(list.json?["resources"]?.arrayValue?.first == created.json)

            let patched = try client.request(
                "PATCH", "/v1/resources", json: ["path": "/flags/:p", "value": nil, "ifRevision": 1])
            #expect(patched.status == 200)
            #expect(patched.header("ETag") == #""3""#)
            #expect(patched.json == ["path": "/flags/:platform", "name": "flags", "revision": 3, "value": nil])
            #expect(try client.get("/v1/resources?loc=/flags/x").json?["value"] == .null)

            let deleted = try client.request("DELETE", "/v1/resources?name=flags", headers: ["If-Match": #""3""#])
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            #expect(try client.get("/v1/resources?loc=/flags/x").errorCode == "no_match")
            #expect(try client.get("/v1/resources").header("ETag") == #""4""#)
            #expect(try client.request("DELETE", "/v1/resources?path=/greet/:x").status == 204)
            #expect(try client.get("/v1/resources").json == ["resources": []])
        }
    }

    @Test func onExistsAnswers200WithTheResource() throws {
        try withServer { server in
            let client = server.client()
            #expect(try client.post("/v1/resources", ["path": "/a", "name": "a", "value": 1]).status == 201)
            let exists = try client.post("/v1/resources", ["path": "/a", "value": 2])
            #expect(exists.status == 409)
            #expect(exists.errorCode == "resource_exists")
            #expect(exists.errorDetails == ["path": "/a", "name": "a"])

            let kept = try client.post("/v1/resources", ["path": "/a", "value": 2, "onExists": "keep"])
            #expect(kept.status == 200)
            #expect(kept.header("ETag") == #""1""#)
            #expect(kept.json == ["path": "/a", "name": "a", "revision": 1, "value": 1])

            let renamed = try client.post("/v1/resources", ["path": "/a", "name": "b", "value": 2, "onExists": "keep"])
            #expect(renamed.status == 200)
            #expect(renamed.json == ["path": "/a", "name": "b", "revision": 2, "value": 1])
            #expect(try client.get("/v1/resources?name=a").errorCode == "unknown_name")

            let replaced = try client.post("/v1/resources", ["path": "/a", "value": 3, "onExists": "replace"])
            #expect(replaced.status == 200)
            #expect(replaced.header("ETag") == #""3""#)
            #expect(replaced.json == ["path": "/a", "name": "b", "revision": 3, "value": 3])

            #expect(try client.post("/v1/resources", ["path": "/c", "value": 0]).status == 201)
            let conflict = try client.post(
                "/v1/resources", ["path": "/c", "name": "b", "value": 0, "onExists": "replace"])
            #expect(conflict.status == 409)
            #expect(conflict.errorCode == "name_conflict")
            #expect(conflict.errorDetails?["pattern"] == "/a")
        }
    }

    @Test func ifMatchAndIfRevisionGuardChanges() throws {
        try withServer { server in
            let client = server.client()
            _ = try client.post("/v1/resources", ["path": "/a", "name": "a", "value": 1])
            _ = try client.post("/v1/resources", ["path": "/b", "value": 1])
            func patch(_ headers: [String: String], ifRevision: Int? = nil) throws -> HTTPClient.Reply {
                var body: JSONObject = ["name": "a", "value": 2]
                if let ifRevision { body["ifRevision"] = .int(ifRevision) }
                return try client.request("PATCH", "/v1/resources", json: .object(body), headers: headers)
            }
            for header in [#""2""#, #"W/"1""#, "1", #""1"x"#, #""1", *"#, #""abc""#, "", #"""#] {
                let reply = try patch(["If-Match": header])
                #expect(reply.status == 412, "If-Match: \(header)")
                #expect(reply.errorCode == "revision_mismatch")
                #expect(reply.errorDetails == ["path": "/a", "name": "a", "revision": 1])
            }
            #expect(try patch([:], ifRevision: 0).status == 412)
            #expect(try patch(["If-Match": #""1""#], ifRevision: 2).status == 412)
            #expect(try patch(["If-Match": #""2""#], ifRevision: 1).status == 412)
            let listed = try patch(["If-Match": #" "9", W/"1" , "1""#])
            #expect(listed.status == 200)
            #expect(listed.header("ETag") == #""3""#)
            #expect(try patch(["If-Match": "*"], ifRevision: 3).status == 200)

            let missing = try client.request("DELETE", "/v1/resources?path=/zzz", headers: ["If-Match": "*"])
            #expect(missing.status == 404)
            #expect(missing.errorCode == "no_match")
            let stale = try client.request("DELETE", "/v1/resources?name=a", headers: ["If-Match": #""3""#])
            #expect(stale.status == 412)
            #expect(try client.request("DELETE", "/v1/resources?name=a", headers: ["If-Match": #""4""#]).status == 204)
            #expect(try client.request("DELETE", "/v1/resources?path=/b", headers: ["If-Match": "*"]).status == 204)
        }
    }

    /// `POST` honours `If-Match` too (RFC 9110 §13.1.1: evaluated before the method), against the resource with the
    /// same pattern: a `replace` or `keep` from a stale revision is 412, and a create finds nothing to match (412).
    /// A write refused anyway (`onExists: fail`, 409) stays refused so (§13.2.1).
    @Test func ifMatchGuardsAPost() throws {
        try withServer { server in
            let client = server.client()
            func post(_ body: JSONValue, ifMatch: String) throws -> HTTPClient.Reply {
                try client.request("POST", "/v1/resources", json: body, headers: ["If-Match": ifMatch])
            }
            let created = try post(["path": "/p", "value": 1], ifMatch: "*")
            #expect(created.status == 412)
            #expect(created.errorCode == "revision_mismatch")
            #expect(created.errorDetails == ["path": "/p", "name": nil, "revision": nil])
            #expect(try client.post("/v1/resources", ["path": "/p", "value": 1]).status == 201)
            let stale = try post(["path": "/p", "value": 2, "onExists": "replace"], ifMatch: #""9""#)
            #expect(stale.status == 412)
            #expect(stale.errorDetails == ["path": "/p", "name": nil, "revision": 1])
            #expect(
                try post(["path": "/p", "value": 2, "onExists": "keep", "name": "p"], ifMatch: #""9""#).status == 412)
            #expect(try post(["path": "/p", "value": 2], ifMatch: #""9""#).errorCode == "resource_exists")
            let replaced = try post(["path": "/p", "value": 2, "onExists": "replace"], ifMatch: #""1""#)
            #expect(replaced.status == 200)
            #expect(replaced.json?["value"] == 2)
            #expect(try post(["path": "/p", "value": 3, "onExists": "replace"], ifMatch: "*").status == 200)
            #expect(try client.get("/v1/resources?loc=/p").json?["value"] == 3)
        }
    }

    /// A repeated read is answered from the answers kept (``KeptAnswers``), and every write is seen by the very
    /// next read: a change, a new resource where there was none, a deletion.
    @Test func aRepeatedReadIsKeptAndFollowsEveryWrite() throws {
        try withServer { server in
            let client = server.client()
            #expect(try client.post("/v1/resources", ["path": "/flags/:p", "name": "flags", "value": 1]).status == 201)
            let read = "/v1/resources?loc=/flags/ios"
            var first: HTTPClient.Reply?
            for _ in 0..<3 {
                let reply = try client.get(read)
                #expect(reply.status == 200 && reply.json?["value"] == 1 && reply.header("ETag") == #""1""#)
                #expect(reply.body == (first ?? reply).body)
                first = first ?? reply
            }
            #expect(try client.request("PATCH", "/v1/resources", json: ["name": "flags", "value": 2]).status == 200)
            let changed = try client.get(read)
            #expect(changed.json?["value"] == 2 && changed.header("ETag") == #""2""#)
            // An error is kept too, until a write makes the location match.
            for _ in 0..<3 { #expect(try client.get("/v1/resources?loc=/banner").errorCode == "no_match") }
            #expect(try client.post("/v1/resources", ["path": "/banner", "value": "sale"]).status == 201)
            #expect(try client.get("/v1/resources?loc=/banner").json?["value"] == "sale")
            #expect(try client.request("DELETE", "/v1/resources?name=flags").status == 204)
            #expect(try client.get(read).errorCode == "no_match")
        }
    }

    @Test func readErrors() throws {
        try withServer { server in
            let client = server.client()
            _ = try client.post("/v1/resources", ["path": "/f/:a/:b", "name": "f", "value": 1])
            _ = try client.post("/v1/resources", ["path": "/boom", "name": "boom", "compute": ["throw": "Oops"]])
            let cases: [(String, Int, String, String?, JSONValue?)] = [
                ("/v1/resources?loc=/nope", 404, "no_match", "location", "/nope"),
                ("/v1/resources?loc=", 400, "invalid_url", nil, nil),
                ("/v1/resources?loc=/a%zz", 400, "invalid_url", nil, nil),
                ("/v1/resources?loc=%2Fa%25zz", 400, "invalid_url", nil, nil),
                ("/v1/resources?loc=/f/1/2&name=f", 400, "invalid_request", nil, nil),
                ("/v1/resources?name=nobody", 404, "unknown_name", "name", "nobody"),
                ("/v1/resources?name=bad%20name", 400, "invalid_request", "field", "name"),
                ("/v1/resources?name=f&a=1", 400, "missing_params", "missing", ["b"]),
                ("/v1/resources?name=f", 400, "missing_params", "missing", ["a", "b"]),
                ("/v1/resources?name=f&a=1&b=2&c=3&tab=x", 400, "unexpected_params", "unexpected", ["c", "tab"]),
                ("/v1/resources?loc=/boom", 422, "rule_error", "type", "Oops"),
                ("/v1/resources?name=boom", 422, "rule_error", "type", "Oops"),
            ]
            for (target, status, code, key, value) in cases {
                let reply = try client.get(target)
                #expect(reply.status == status, "\(target)")
                #expect(reply.errorCode == code, "\(target)")
                if let key { #expect(reply.errorDetails?[key] == value, "\(target)") }
            }
            #expect(
                try client.get("/v1/resources?name=f&a=x%2Fy&b=%E6%B8%85").json?["params"] == ["a": "x/y", "b": "清"])
        }
    }

    @Test func numbersAreKeptAsSentOrRefused() throws {
        try withServer { server in
            let client = server.client()
            // Numbers that could not be stored as sent are refused, and nothing is stored.
            for number in ["1e999", "12345678901234567890", "1e-400"] {
                let body = Array(#"{"path": "/num", "value": \#(number)}"#.utf8)
                let reply = try client.request("POST", "/v1/resources", body: body)
                #expect(reply.status == 400, "\(number)")
                #expect(reply.errorCode == "invalid_json", "\(number)")
            }
            #expect(try client.get("/v1/resources?loc=/num").errorCode == "no_match")
            let exact = try client.request(
                "POST", "/v1/resources", body: Array(#"{"path": "/num", "value": [9223372036854775807, 0.1]}"#.utf8))
            #expect(exact.json?["value"] == [.int(Int.max), .double(0.1)])
        }
    }

    @Test func writeErrors() throws {
        try withServer { server in
            let client = server.client()
            _ = try client.post("/v1/resources", ["path": "/a", "name": "a", "value": 1])
            let posts: [(JSONValue, String)] = [
                (["path": "/b", "value": 1, "extra": true], "invalid_request"),
                (["path": "/b"], "invalid_request"),
                (["path": "/b", "value": 1, "compute": 1], "invalid_request"),
                (["path": "/b", "value": 1, "name": "no way"], "invalid_request"),
                (["path": "/b", "value": 1, "onExists": "merge"], "invalid_request"),
                (["path": "b", "value": 1], "invalid_pattern"),
                (["path": "/b/:x/:x", "value": 1], "invalid_pattern"),
                (["path": "/b", "compute": ["bogus": []]], "invalid_rule"),
                ([1, 2], "invalid_request"),
            ]
            for (body, code) in posts {
                let reply = try client.post("/v1/resources", body)
                #expect(reply.status == 400, "\(body)")
                #expect(reply.errorCode == code, "\(body)")
            }
            let pattern = try client.post("/v1/resources", ["path": "/b/*x/c", "value": 1])
            #expect(pattern.errorDetails?["position"] != nil)
            #expect(pattern.errorDetails?["reason"] != nil)
            #expect(try client.request("POST", "/v1/resources", body: []).errorCode == "invalid_json")
            #expect(try client.request("POST", "/v1/resources", body: Array("{".utf8)).errorCode == "invalid_json")
            let text = try client.request(
                "POST", "/v1/resources", body: Array("x".utf8), headers: ["Content-Type": "text/plain"])
            #expect(text.status == 415)

            let patches: [(JSONValue, Int, String)] = [
                (["path": "/a", "name": "a", "value": 1], 400, "invalid_request"),
                (["value": 1], 400, "invalid_request"),
                (["name": "a"], 400, "invalid_request"),
                (["name": "a", "value": 1, "ifRevision": -1], 400, "invalid_request"),
                (["name": "a", "value": 1, "onExists": "keep"], 400, "invalid_request"),
                (["name": "a", "compute": ["bogus": 1]], 400, "invalid_rule"),
                (["path": "/zzz", "value": 1], 404, "no_match"),
                (["name": "zzz", "value": 1], 404, "unknown_name"),
                (["name": "a", "value": 1, "ifRevision": 7], 412, "revision_mismatch"),
            ]
            for (body, status, code) in patches {
                let reply = try client.request("PATCH", "/v1/resources", json: body)
                #expect(reply.status == status, "\(body)")
                #expect(reply.errorCode == code, "\(body)")
            }

            let deletes: [(String, Int, String)] = [
                ("/v1/resources", 400, "invalid_request"),
                ("/v1/resources?path=/a&name=a", 400, "invalid_request"),
                ("/v1/resources?path=a", 400, "invalid_pattern"),
                ("/v1/resources?name=a%20b", 400, "invalid_request"),
                ("/v1/resources?path=/zzz", 404, "no_match"),
                ("/v1/resources?name=zzz", 404, "unknown_name"),
            ]
            for (target, status, code) in deletes {
                let reply = try client.request("DELETE", target)
                #expect(reply.status == status, "\(target)")
                #expect(reply.errorCode == code, "\(target)")
            }
            // Nothing above was written.
            #expect(try client.get("/v1/resources").header("ETag") == #""1""#)
        }
    }

    @Test func hostAllowListAppliesToLocations() throws {
        try withServer({ $0.linkHosts = ["example.com"] }) { server in
            let client = server.client()
            _ = try client.post("/v1/resources", ["path": "/a", "value": 1])
            #expect(try client.get("/v1/resources?loc=https%3A%2F%2Fexample.com%2Fa").status == 200)
            #expect(try client.get("/v1/resources?loc=https%3A%2F%2Fother.org%2Fa").errorCode == "no_match")
            #expect(try client.get("/v1/resources?loc=myapp%3A%2F%2Fa").status == 200)
        }
    }

    @Test func theReadTokenGuardsReads() throws {
        try withServer({ $0.readToken = "reader" }) { server throws in
            let client = server.client()
            #expect(try client.get("/v1/resources").status == 401)
            #expect(try client.get("/v1/resources?loc=/a", headers: ["Authorization": "Bearer reader"]).status == 404)
            #expect(try client.get("/v1/resources", headers: ["Authorization": "Bearer reader"]).status == 200)
        }
    }

    @Test func theAdminTokenGuardsWrites() throws {
        try withServer({ $0.adminToken = "admin" }) { server throws in
            let client = server.client()
            let body: JSONValue = ["path": "/a", "value": 1]
            #expect(try client.post("/v1/resources", body).status == 401)
            #expect(try client.post("/v1/resources", body, headers: ["Authorization": "Bearer reader"]).status == 401)
            #expect(try client.post("/v1/resources", body, headers: ["Authorization": "Bearer admin"]).status == 201)
            #expect(try client.get("/v1/resources").status == 200)
            #expect(try client.request("DELETE", "/v1/resources?path=/a").status == 401)
            #expect(try client.request("PATCH", "/v1/resources", json: ["path": "/a", "value": 2]).status == 401)
        }
    }

    @Test func methodsAndMetrics() throws {
        try withServer { server in
            let client = server.client()
            let put = try client.request("PUT", "/v1/resources", json: [:])
            #expect(put.status == 405)
            #expect(put.header("Allow") == "DELETE, GET, PATCH, POST, HEAD")
            #expect(try client.request("HEAD", "/v1/resources").status == 200)
            _ = try client.post("/v1/resources", ["path": "/a", "value": 1])
            _ = try client.post("/v1/resources", ["path": "/b", "value": 1])
            let metrics = try client.get("/metrics").text
            #expect(metrics.contains("linkserver_resources 2"))
            #expect(metrics.contains(#"endpoint="/v1/resources""#))
        }
    }
}
