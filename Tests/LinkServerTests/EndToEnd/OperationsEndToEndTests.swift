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
