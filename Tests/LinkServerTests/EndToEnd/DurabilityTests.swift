import Foundation
import LinkCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Acknowledged writes survive `kill -9` of the real server process.
@Suite(.serialized) struct DurabilityTests {
    @Test func acknowledgedRoutesSurviveKill9() throws {
        let dataDir = TestServer.temporaryDirectory()
        let arguments = ["--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", "/nonexistent.json"]
        var acknowledged: [String] = []
        do {
            let server = try ServerProcess(arguments: arguments)
            let client = HTTPClient(port: try server.waitUntilListening())
            for index in 0..<25 {
                let reply = try client.post(
                    "/v1/routes", ["path": .string("/r\(index)/:id"), "name": .string("r\(index)")])
                if reply.status == 201 { acknowledged.append("r\(index)") }
            }
            server.signal(SIGKILL)
            _ = try server.waitForExit()
        }
        #expect(acknowledged.count == 25)
        let restarted = try ServerProcess(arguments: arguments)
        let client = HTTPClient(port: try restarted.waitUntilListening())
        for name in acknowledged {
            #expect(try client.get("/v1/routes/\(name)").status == 200, "route \(name) lost")
        }
        restarted.signal(SIGTERM)
        #expect(try restarted.waitForExit() == 0)
    }
}
