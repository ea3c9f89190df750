import LinkCore
import Testing

@testable import LinkServer

/// `GET /readyz` in each stage of the service's life (API.md §6: 200 once the store is open and routes loaded;
/// api-notes: 503 with `Retry-After` before that and while stopping, and §12's `unavailable` while a shared store
/// is lost). The stages before the listener answers and after it stops are not reachable over HTTP, so the
/// endpoint is called directly.
@Suite struct ReadinessTests {
    private func readyz(_ stage: ReadinessFlag.Stage) throws -> Response {
        let endpoints = OperationsEndpoints(stage: { stage }, metrics: ServiceMetrics()).endpoints
        let endpoint = try #require(endpoints.first { $0.method == "GET" && $0.template == "/readyz" })
        guard case .now(let response) = try endpoint.handler(Request(method: "GET", path: "/readyz"), [:]) else {
            Issue.record("/readyz answered later")
            throw CancellationError()
        }
        return response
    }

    private func header(_ response: Response, _ name: String) -> String? {
        response.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    @Test func readyIs200() throws {
        let response = try readyz(.ready)
        #expect(response.status == 200)
        #expect(try JSONParser.parse(response.body) == ["status": "ready"])
        #expect(header(response, "Retry-After") == nil)
    }

    @Test(arguments: [(ReadinessFlag.Stage.starting, "starting"), (.stopping, "stopping")])
    func notReadyIs503WithRetryAfter(stage: ReadinessFlag.Stage, status: String) throws {
        let response = try readyz(stage)
        #expect(response.status == 503)
        #expect(try JSONParser.parse(response.body) == ["status": .string(status)])
        #expect(header(response, "Retry-After") == "1")
    }

    @Test func aLostSharedStoreIsUnavailableInTheEnvelope() throws {
        let response = try readyz(.unavailable)
        #expect(response.status == 503)
        let body = try JSONParser.parse(response.body)
        #expect(body["status"] == "unavailable")
        #expect(body["error"]?["code"] == "unavailable")
        #expect(header(response, "Retry-After") == "1")
    }
}
