import Dispatch
import Foundation
import LinkCore
import Synchronization
import Testing

extension PostgresSuites {
    /// `deploy/nginx.conf`, started for real on loopback in front of two instances on one PostgreSQL database
    /// (docs/deployment.md): writes, resolves, a long-poll through the proxy woken by an emit, a click.
    @Suite struct NginxDeploymentTests {
        static var nginx: String? {
            ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        }

        /// The example config with its ports replaced: the two instances' listeners and two free front ports; every
        /// answer through the proxy carries `X-Test-Front: <folder>`, so the test knows it reached this nginx.
        static func config(api: [UInt16], links: [UInt16], front: (UInt16, UInt16), folder: String) throws -> String {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../../deploy/nginx.conf")
            var text = try String(contentsOf: source, encoding: .utf8)
            let replacements = [
                ("127.0.0.1:8080 ", "127.0.0.1:\(api[0]) "), ("127.0.0.1:8090 ", "127.0.0.1:\(api[1]) "),
                ("127.0.0.1:8081 ", "127.0.0.1:\(links[0]) "), ("127.0.0.1:8091 ", "127.0.0.1:\(links[1]) "),
                ("listen 127.0.0.1:9080;", "listen 127.0.0.1:\(front.0);"),
                ("listen 127.0.0.1:9081;", "listen 127.0.0.1:\(front.1);"),
                ("pid /tmp/linkserver-nginx.pid;", "pid \(folder)/nginx.pid;"),
                ("    access_log off;\n", "    access_log off;\n    add_header X-Test-Front \"\(folder)\" always;\n"),
            ]
            for (old, new) in replacements {
                #expect(text.contains(old), "deploy/nginx.conf no longer has \(old)")
                text = text.replacingOccurrences(of: old, with: new)
            }
            let path = folder + "/nginx.conf"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        /// Starts nginx on two free front ports in front of `instances` and waits until both answer through it. A
        /// free port may be taken by a test running beside this one before nginx binds it (nginx then exits, or the
        /// port answers without this nginx's header): then again on two other ports, five times at most.
        static func startFront(_ nginx: String, in instances: [ServerProcess]) throws -> (Process, (UInt16, UInt16)) {
            for _ in 0..<5 {
                let folder = TestServer.temporaryDirectory()
                // Two different ports: both held while the second is chosen, let go for nginx to bind.
                let front = { () -> (UInt16, UInt16) in
                    let (api, links) = (RefusingLoopbackPort(), RefusingLoopbackPort())
                    return (api.port, links.port)
                }()
                let path = try config(
                    api: instances.map(\.port), links: instances.map(\.linksPort), front: front, folder: folder)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: nginx)
                process.arguments = ["-p", folder, "-c", path, "-g", "daemon off;"]
                try process.run()
                // The API's readiness, and the links listener's own 404 (not a proxy error).
                let reached = { (port: UInt16, path: String, status: Int) in
                    let reply = try? HTTPClient(port: port).get(path)
                    return reply?.status == status && reply?.header("x-test-front") == folder
                }
                let up = waitUntil(timeout: .seconds(10)) {
                    !process.isRunning || (reached(front.0, "/readyz", 200) && reached(front.1, "/nowhere", 404))
                }
                if up && process.isRunning { return (process, front) }
                process.terminate()
                process.waitUntilExit()
            }
            throw NginxFailure()
        }

        struct NginxFailure: Error, CustomStringConvertible {
            var description: String { "nginx did not come up on free ports in five tries" }
        }

        @Test func twoInstancesBehindNginxServeAsOne() throws {
            let nginx = try #require(Self.nginx, "nginx is not installed: scripts/test installs it")
            let url = try PostgresTestDatabase.create()
            let settings = try MultiInstanceTests.configFile()
            let instances = [
                try MultiInstanceTests.instance(url, config: settings),
                try MultiInstanceTests.instance(url, config: settings),
            ]
            let (process, front) = try Self.startFront(nginx, in: instances)
            defer {
                process.terminate()
                process.waitUntilExit()
            }
            let api = front.0
            // A write through the proxy lands on one instance; resolves spread over both see it within 1 s.
            #expect(try HTTPClient(port: api).post("/v1/routes", ["path": "/users/:id", "name": "user"]).status == 201)
            #expect(
                waitUntil(timeout: PostgresSuites.withinOneSecond) {
                    (0..<4).allSatisfy { _ in (try? HTTPClient(port: api).get("/v1/resolve?url=/users/7").status) == 200
                    }
                })
            // A long-poll through the proxy, woken by an emit that may reach the other instance.
            #expect(try HTTPClient(port: api).post("/v1/events", ["path": "/seek/:p"]).status == 201)
            let subscribed = try HTTPClient(port: api).post(
                "/v1/events/subscriptions", ["events": [["path": "/seek/:p"]], "ttl": 60])
            let id = try #require(subscribed.json?["id"]?.stringValue)
            let cursor = try #require(subscribed.json?["cursor"]?.intValue)
            let answer = Mutex<HTTPClient.Reply?>(nil)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let reply = try? HTTPClient(port: api).get("/v1/events/subscriptions/\(id)?after=\(cursor)&wait=8")
                answer.withLock { $0 = reply }
                done.signal()
            }
            let ports = instances.map(\.port)
            #expect(
                waitUntil {
                    ports.contains { port in
                        (try? HTTPClient(port: port).get("/metrics").text.contains("linkserver_polls_waiting 1"))
                            == true
                    }
                })
            for index in 0..<3 {
                #expect(
                    try HTTPClient(port: api).post("/v1/events/emit", ["loc": .string("/seek/\(index)")]).status == 200)
            }
            #expect(done.wait(timeout: .now() + 5) == .success)
            let events = answer.withLock { $0 }?.json?["events"]?.arrayValue ?? []
            #expect(events.first?["params"] == ["p": "0"])
            // A click on the links listener through the proxy keeps its Host.
            let click = try HTTPClient(port: front.1).get(
                "/users/42", headers: ["Host": "links.example.com", "User-Agent": MultiInstanceTests.windows])
            #expect(click.status == 302)
            #expect(click.header("location") == "https://www.example.com/users/42")
            // §7 "Serving": the association file through the proxy is served for the Host asked for, never
            // redirected; a Host the listener does not serve is its 404, so the proxy passed the Host on.
            let file = try HTTPClient(port: front.1).get(
                "/.well-known/assetlinks.json", headers: ["Host": "links.example.com"])
            #expect(file.status == 200)
            #expect(file.header("content-type") == "application/json")
            #expect(file.json?.arrayValue?.first?["target"]?["package_name"] == "com.example.app")
            let otherHost = try HTTPClient(port: front.1).get(
                "/.well-known/assetlinks.json", headers: ["Host": "elsewhere.example.org"])
            #expect(otherHost.status == 404)
            // §12: every instance serves the same bytes with the same ETag, for both files.
            let apple = try HTTPClient(port: front.1).get(
                "/.well-known/apple-app-site-association", headers: ["Host": "links.example.com"])
            #expect(apple.status == 200)
            #expect(apple.text.contains("ABCDE12345.com.example.app"))
            for instance in instances {
                for reference in [
                    (path: "/.well-known/assetlinks.json", reply: file),
                    (path: "/.well-known/apple-app-site-association", reply: apple),
                ] {
                    let direct = try HTTPClient(port: instance.linksPort).get(
                        reference.path, headers: ["Host": "links.example.com"])
                    #expect(direct.body == reference.reply.body, "\(reference.path)")
                    #expect(
                        direct.header("etag") != nil && direct.header("etag") == reference.reply.header("etag"),
                        "\(reference.path)")
                }
            }
        }
    }
}
