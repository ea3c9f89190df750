import Foundation
import LinkCore
import Testing

@testable import LinkServer

@Suite struct OperationsEndToEndTests {
    @Test func metricsAreLabelledByEndpointTemplateNotRawPath() throws {
        try withServer { (server) throws in
            let client = server.client()
            _ = try client.get("/healthz")
            _ = try client.get("/no/such/path/12345")
            let reply = try client.get("/metrics")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix("text/plain") == true)
            let text = reply.text
            #expect(text.contains(#"linkserver_http_requests_total{endpoint="/healthz",method="GET",status="200"} 1"#))
            #expect(text.contains(#"endpoint="unmatched""#))
            #expect(!text.contains("12345"))
            #expect(text.contains("linkserver_http_request_duration_seconds_bucket"))
        }
    }

    /// Every family on the page has its `# HELP` and `# TYPE` lines before its samples, once each (what
    /// `promtool check metrics` asks), including the process families.
    @Test func everyFamilyHasHelpAndType() throws {
        try withServer { (server) throws in
            let client = server.client()
            _ = try client.get("/healthz")
            _ = try client.get("/v1/resolve?url=/nowhere")
            let lines = try client.get("/metrics").text.split(separator: "\n")
            var helped: [Substring: Int] = [:]
            var typed: [Substring: Substring] = [:]
            var sampled: Set<Substring> = []
            for line in lines {
                let words = line.split(separator: " ", maxSplits: 3)
                if line.hasPrefix("# HELP ") {
                    #expect(words.count == 4, "a HELP line without text: \(line)")
                    helped[words[2], default: 0] += 1
                } else if line.hasPrefix("# TYPE ") {
                    #expect(typed[words[2]] == nil, "a second TYPE line: \(line)")
                    typed[words[2]] = words[3]
                } else {
                    let name = line.prefix { $0 != "{" && $0 != " " }
                    let family =
                        typed[name] != nil
                        ? name
                        : ["_bucket", "_sum", "_count"].compactMap { suffix in
                            name.hasSuffix(suffix) ? name.dropLast(suffix.count) : nil
                        }.first ?? name
                    #expect(typed[family] != nil, "a sample before its TYPE: \(line)")
                    #expect(helped[family] == 1, "a sample without one HELP: \(line)")
                    sampled.insert(family)
                }
            }
            for family in [
                "linkserver_http_requests_total", "linkserver_http_request_duration_seconds", "linkserver_routes",
                "linkserver_resolve_outcomes_total", "linkserver_link_decisions_total", "process_cpu_seconds_total",
                "process_resident_memory_bytes", "process_open_fds", "process_max_fds", "process_start_time_seconds",
            ] {
                #expect(sampled.contains(Substring(family)), "\(family) missing")
            }
        }
    }

    /// The `process_*` families hold this process's figures: its open-file limit, a start in the last day, some
    /// resident memory and open files (the listeners' sockets, the database).
    @Test func processMetricsDescribeThisProcess() throws {
        try withServer { (server) throws in
            let text = try server.client().get("/metrics").text
            func value(_ name: String) -> Double? {
                let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
                return line.flatMap { Double($0.split(separator: " ")[1]) }
            }
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            #expect(value("process_max_fds") == Double(limit.rlim_cur))
            let now = Date().timeIntervalSince1970
            let start = try #require(value("process_start_time_seconds"))
            #expect(start <= now + 1 && start > now - 86_400)
            #expect(try #require(value("process_resident_memory_bytes")) > 1_000_000)
            #expect(try #require(value("process_virtual_memory_bytes")) >= value("process_resident_memory_bytes")!)
            #expect(try #require(value("process_open_fds")) >= 3)
            #expect(try #require(value("process_cpu_seconds_total")) > 0)
        }
    }

    /// Any token is a method to HTTP, and a 405 needs no token: unknown methods share one `other` label, so the
    /// page and the registry stay the same size however many a client invents.
    @Test func metricsLabelsStayBoundedWhateverTheMethod() throws {
        try withServer { (server) throws in
            let client = server.client()
            for index in 0..<300 {
                #expect(try client.request("X\(index)Y", "/healthz").status == 405)
                #expect(try client.request("Q\(index)Z", "/nowhere/\(index)").status == 404)
            }
            _ = try client.request("PATCH", "/healthz")
            let text = try client.get("/metrics").text
            #expect(!text.contains("X1Y"))
            #expect(!text.contains("Q1Z"))
            #expect(
                text.contains(#"linkserver_http_requests_total{endpoint="/healthz",method="other",status="405"} 300"#))
            #expect(
                text.contains(#"linkserver_http_requests_total{endpoint="unmatched",method="other",status="404"} 300"#))
            #expect(text.contains(#"endpoint="/healthz",method="PATCH",status="405""#))
            let series = text.split(separator: "\n").filter { $0.hasPrefix("linkserver_http_requests_total{") }
            #expect(series.count <= 4, "\(series)")
            #expect(text.utf8.count < 64 * 1024)
        }
    }

    @Test func metricsCountResolutionOutcomesAndGauges() throws {
        try withServer { (server) throws in
            let client = server.client()
            _ = try client.post("/v1/routes", ["path": "/a", "redirect": [["to": "/b"]]])
            _ = try client.post("/v1/routes", ["path": "/b"])
            _ = try client.get("/v1/resolve?url=/b")
            _ = try client.get("/v1/resolve?url=/a")
            _ = try client.get("/v1/resolve?url=/nowhere")
            let text = try client.get("/metrics").text
            #expect(text.contains(#"linkserver_resolve_outcomes_total{outcome="resolved"} 1"#))
            #expect(text.contains(#"linkserver_resolve_outcomes_total{outcome="redirected"} 1"#))
            #expect(text.contains(#"linkserver_resolve_outcomes_total{outcome="no_match"} 1"#))
            #expect(text.contains("linkserver_routes 2"))
            #expect(text.contains("linkserver_resources 0"))
            #expect(text.contains("linkserver_subscriptions_open 0"))
            #expect(text.contains("linkserver_polls_waiting 0"))
        }
    }

    /// §6: "open subscriptions" is a live gauge, and a path with a name or an id in it is counted under its
    /// template, the name and the id nowhere on the page.
    @Test func metricsCountOpenSubscriptionsAndLabelTemplatedPaths() throws {
        try withServer { (server) throws in
            let client = server.client()
            var ids: [String] = []
            for _ in 0..<2 {
                let created = try client.post("/v1/events/subscriptions", ["events": [["path": "/e"]]])
                ids.append(try #require(created.json?["id"]?.stringValue))
            }
            #expect(try client.get("/v1/routes/secretRouteName123").status == 404)
            #expect(try client.get("/v1/events/subscriptions/\(ids[0])?wait=0").status == 200)
            var text = try client.get("/metrics").text
            #expect(text.contains("linkserver_subscriptions_open 2"))
            #expect(
                text.contains(
                    #"linkserver_http_requests_total{endpoint="/v1/routes/{name}",method="GET",status="404"} 1"#))
            #expect(
                text.contains(
                    #"linkserver_http_requests_total{endpoint="/v1/events/subscriptions/{id}",method="GET",status="200"} 1"#
                ))
            #expect(!text.contains("secretRouteName123"))
            #expect(!text.contains(ids[0]))
            #expect(try client.request("DELETE", "/v1/events/subscriptions/\(ids[1])").status == 204)
            text = try client.get("/metrics").text
            #expect(text.contains("linkserver_subscriptions_open 1"))
        }
    }

    /// `linkserver_build_info` names the running build's version, which is the OpenAPI document's.
    @Test func buildInfoNamesTheVersion() throws {
        let document = try JSONParser.parse(OpenAPIDocument.bytes)
        #expect(document["info"]?["version"] == .string(BuildInfo.version))
        try withServer { (server) throws in
            let text = try server.client().get("/metrics").text
            #expect(text.contains("linkserver_build_info{version=\"\(BuildInfo.version)\"} 1"), "\(text)")
        }
    }

    @Test func openAPIDocumentIsServedAndValidJSON() throws {
        try withServer { (server) throws in
            let reply = try server.client().get("/openapi.json")
            #expect(reply.status == 200)
            let document = try #require(reply.json)
            #expect(document["openapi"] == "3.1.0")
            #expect(document["paths"]?["/healthz"] != nil)
        }
    }

    /// Every endpoint the server serves is documented with the same method, and the document describes no
    /// operation the server lacks.
    @Test func openAPIDocumentMatchesTheEndpointTable() throws {
        let document = try JSONParser.parse(OpenAPIDocument.bytes)
        var documented: Set<String> = []
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for method in item.objectValue?.keys ?? [] where ["get", "post", "put", "patch", "delete"].contains(method)
            {
                documented.insert(method.uppercased() + " " + path)
            }
        }
        try withServer { (server) throws in
            let served = Set(server.application.endpointList.map { $0.method + " " + $0.template })
            #expect(
                served.subtracting(documented).isEmpty, "served but undocumented: \(served.subtracting(documented))")
            #expect(
                documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served))")
        }
    }

    /// An endpoint that waits on the store answers 503 `unavailable` while a shared store is lost (API.md §12): the
    /// document lists that answer for each of them.
    @Test func everyEndpointThatWaitsOnTheStoreDocumentsUnavailable() throws {
        let document = try JSONParser.parse(OpenAPIDocument.bytes)
        try withServer { (server) throws in
            let onStore = server.application.endpointList.filter(\.usesStore)
            #expect(onStore.count >= 20)
            for endpoint in onStore {
                let operation = document["paths"]?[endpoint.template]?[endpoint.method.lowercased()]
                #expect(
                    operation?["responses"]?["503"]?["$ref"] == "#/components/responses/ServiceUnavailable",
                    "\(endpoint.method) \(endpoint.template)")
            }
        }
    }
}
