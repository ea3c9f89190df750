import Foundation
import LinkCore
import Synchronization
import Testing

extension PostgresSuites {
    /// PostgreSQL stopped and restarted under running instances (API.md §12): `/readyz` 503 within 5 s, writes
    /// 503 `unavailable`, reads, resolves and clicks keep working (no token, `maxClicks` as expired), and the
    /// instance reconnects by itself and writes the buffered clicks; nothing acknowledged is lost.
    @Suite struct StoreOutageTests {
        @Test func anOutageIsServedFromTheLastStateAndRecoveredFrom() throws {
            let url = try PostgresTestDatabase.create()
            let config = try PostgresSuites.MultiInstanceTests.configFile()
            let a = try PostgresSuites.MultiInstanceTests.instance(url, config: config)
            let b = try PostgresSuites.MultiInstanceTests.instance(url, config: config)
            let api = HTTPClient(port: a.port)
            #expect(try api.post("/v1/routes", ["path": "/users/:id"]).status == 201)
            #expect(
                try api.post(
                    "/v1/routes",
                    ["path": "/promo/:code", "link": ["maxClicks": 100, "expiredURL": "https://x.test/gone"]]
                )
                .status == 201)
            let click: [String: String] = [
                "Host": "links.example.com", "User-Agent": PostgresSuites.MultiInstanceTests.android,
            ]
            #expect(
                waitUntil(timeout: PostgresSuites.withinOneSecond) {
                    (try? HTTPClient(port: b.port).get("/v1/resolve?url=/users/1").status) == 200
                })

            let statsBefore = try #require(try api.get("/v1/stats/clicks").json?["clicks"]?.intValue)
            // A click written to the store after that read (B reads the store) still counts during the outage.
            #expect(try HTTPClient(port: a.linksPort).get("/users/1", headers: click).status == 302)
            #expect(
                waitUntil(timeout: .seconds(5)) {
                    (try? HTTPClient(port: b.port).get("/v1/stats/clicks").json?["clicks"]?.intValue)
                        == statsBefore + 1
                })
            // A live `linkClick` subscription: a click does not wait on the lost store to announce itself.
            let subscribed = try api.post(
                "/v1/events/subscriptions", ["events": [["name": "linkClick"]], "ttl": 600])
            #expect(subscribed.status == 201)
            let subscription = try #require(subscribed.json?["id"]?.stringValue)

            try PostgresTestDatabase.control("stop")
            var restarted = false
            defer { if !restarted { try? PostgresTestDatabase.control("start") } }
            let stopped = ContinuousClock.now
            #expect(waitUntil(timeout: .seconds(8)) { (try? api.get("/readyz").status) == 503 })
            #expect(ContinuousClock.now - stopped < .seconds(6))
            let ready = try api.get("/readyz")
            #expect(ready.json?["status"] == "unavailable")
            // The log says what a connection meets (the server is stopped: refused), not only `unavailable`.
            var lost: Substring?
            #expect(
                waitUntil(timeout: .seconds(10)) {
                    lost = a.log.split(separator: "\n").first { $0.contains("shared store unreachable; serving") }
                    return lost != nil
                })
            // What it meets depends on how far the server's stop has got ("Connection refused", or "the database
            // system is shutting down (SQLSTATE 57P03)" a moment before, or a timeout on a loaded machine): any
            // reason, but one a new connection met.
            #expect(lost?.contains("a new connection: ") == true, "\(lost ?? "no line")")
            #expect(lost?.contains("a new connection succeeds") == false, "\(lost ?? "no line")")
            #expect(ready.errorCode == "unavailable")
            // Writes fail with `unavailable`; reads and resolves keep working from the last state. Once the outage
            // is known (`/readyz` 503) they fail at once, as a poll does, rather than each waiting for a connection
            // from the pool that is backing off (2–4 s: a poll with `wait=1` took longer than its wait).
            let writing = ContinuousClock.now
            let write = try api.post("/v1/routes", ["path": "/during"])
            let wrote = ContinuousClock.now - writing
            #expect(
                write.status == 503 && write.errorCode == "unavailable",
                "\(write.status) \(write.text) \(a.log.suffix(3000))")
            #expect(write.header("retry-after") == "1")
            let polling = ContinuousClock.now
            let poll = try api.get("/v1/events/subscriptions/\(subscription)?wait=1")
            let polled = ContinuousClock.now - polling
            #expect(poll.status == 503 && poll.errorCode == "unavailable", "\(poll.status) \(poll.text)")
            #expect(wrote < .seconds(1) && polled < .seconds(1), "a write took \(wrote), a poll \(polled)")
            #expect(try api.get("/v1/resolve?url=/users/7").status == 200)
            #expect(try HTTPClient(port: b.port).get("/v1/routes").status == 200)
            // Clicks are answered, without waiting on the store (each waited the store's timeout, ~4 s, to emit
            // `linkClick`): no token is made (the store URL still carries the link), a `maxClicks` route answers as
            // expired.
            let clicking = ContinuousClock.now
            for _ in 0..<5 {
                let reply = try HTTPClient(port: a.linksPort).get("/users/42", headers: click)
                let location = reply.header("location") ?? ""
                #expect(reply.status == 302, "\(reply.status) \(location)")
                let referrer = try #require(PlayReferrer.queryValue("referrer", in: location))
                #expect(PlayReferrer.queryValue("linkserver_link", in: "?" + referrer) != nil)
                #expect(PlayReferrer.queryValue("linkserver_token", in: "?" + referrer) == nil)
            }
            let promo = try HTTPClient(port: a.linksPort).get(
                "/promo/x",
                headers: ["Host": "links.example.com", "User-Agent": PostgresSuites.MultiInstanceTests.windows])
            #expect(promo.header("location") == "https://x.test/gone")
            #expect(ContinuousClock.now - clicking < .seconds(3), "six clicks took \(ContinuousClock.now - clicking)")
            // The statistics are a read: answered from the counters last read for a range that holds the one asked
            // for, with the clicks counted since; a range never read is 503 `unavailable`.
            let stats = try api.get("/v1/stats/clicks")
            #expect(stats.status == 200, "\(stats.status) \(stats.text)")
            // Exactly: the click before the outage (written by A itself after its last read) and the six since.
            #expect(stats.json?["clicks"]?.intValue == statsBefore + 7, "\(stats.text)")
            let never = try api.get("/v1/stats/clicks?from=2020-01-01&to=2020-01-31")
            #expect(never.status == 503 && never.errorCode == "unavailable")

            try PostgresTestDatabase.control("start")
            restarted = true
            let started = ContinuousClock.now
            #expect(waitUntil(timeout: .seconds(15)) { (try? api.get("/readyz").status) == 200 })
            #expect(ContinuousClock.now - started < .seconds(10), "reconnected after \(ContinuousClock.now - started)")
            // Writes work again and reach the other instance; the clicks buffered meanwhile are written.
            #expect(
                waitUntil(timeout: .seconds(10)) { (try? api.post("/v1/routes", ["path": "/after"]).status) == 201 })
            #expect(
                waitUntil(timeout: .seconds(3)) {
                    (try? HTTPClient(port: b.port).get("/v1/resolve?url=/after").status) == 200
                })
            #expect(
                waitUntil(timeout: .seconds(5)) {
                    let day = String(
                        UTCCalendar.rfc3339(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)).prefix(10))
                    let stats = try? HTTPClient(port: b.port).get("/v1/stats/clicks?from=\(day)&to=\(day)").json
                    return stats?["clicks"]?.intValue == statsBefore + 7
                })
            // §12: the password never appears in logs or errors, those of the outage and the reconnect included.
            let password = try #require(URLComponents(string: url)?.password)
            #expect(password.count >= 5)
            for text in [a.log, b.log, write.text, ready.text, never.text] {
                #expect(!text.contains(password))
            }
            // The maxClicks route counts again.
            let counted = try HTTPClient(port: a.linksPort).get(
                "/promo/y",
                headers: ["Host": "links.example.com", "User-Agent": PostgresSuites.MultiInstanceTests.windows])
            #expect(counted.header("location") == "https://www.example.com/promo/y")
        }
    }
}

extension PostgresSuites.StoreOutageTests {
    /// An instance stopped while the database is out of reach keeps the click counts it could not write in its data
    /// folder, and the next start on that folder writes them: a stop during an outage loses no click.
    @Test func clicksAStopCouldNotWriteAreWrittenByTheNextStart() throws {
        let url = try PostgresTestDatabase.create()
        let config = try PostgresSuites.MultiInstanceTests.configFile()
        let folder = TestServer.temporaryDirectory()
        let a = try PostgresSuites.MultiInstanceTests.instance(url, config: config, dataDir: folder)
        #expect(try HTTPClient(port: a.port).post("/v1/routes", ["path": "/kept/:id", "name": "kept"]).status == 201)
        let click = ["Host": "links.example.com", "User-Agent": PostgresSuites.MultiInstanceTests.windows]
        try PostgresTestDatabase.control("stop")
        var restarted = false
        defer { if !restarted { try? PostgresTestDatabase.control("start") } }
        #expect(waitUntil(timeout: .seconds(8)) { (try? HTTPClient(port: a.port).get("/readyz").status) == 503 })
        for index in 0..<3 {
            #expect(try HTTPClient(port: a.linksPort).get("/kept/\(index)", headers: click).status == 302)
        }
        let stopping = ContinuousClock.now
        a.signal(SIGTERM)
        #expect(try a.waitForExit() == 0)
        let keptLine = a.log.split(separator: "\n").first { $0.contains("kept for the next start") }
        #expect(keptLine?.contains("clicks=3") == true, "\(a.log.suffix(2000))")
        #expect(!a.log.contains("these clicks are lost"))
        // The outage was known: no write of them was tried, neither each second nor at the stop, each of which waited
        // out the store's 10 s (the stop took 10-20 s, past a supervisor's usual kill timer of 10 s).
        #expect(!a.log.contains("click statistics write failed"), "\(a.log.suffix(2000))")
        #expect(ContinuousClock.now - stopping < .seconds(8), "the stop took \(ContinuousClock.now - stopping)")

        try PostgresTestDatabase.control("start")
        restarted = true
        let next = try PostgresSuites.MultiInstanceTests.instance(url, config: config, dataDir: folder)
        #expect(next.log.contains("click statistics kept by an earlier stop are written"))
        #expect(
            waitUntil(timeout: .seconds(5)) {
                (try? HTTPClient(port: next.port).get("/v1/stats/clicks?route=kept").json?["clicks"]?.intValue) == 3
            })
    }

    /// A further signal while a reply is being worked out on a store worker (its connection suspended) waits for
    /// that reply, then stops: libmicrohttpd 0.9.75 aborts the process when stopped with a connection suspended,
    /// which a further signal ending the grace at once would have done.
    @Test func aFurtherSignalWaitsForARepliesBeingWorkedOut() throws {
        let url = try PostgresTestDatabase.create()
        let server = try ServerProcess(
            arguments: [
                "--host", "127.0.0.1", "--port", "0", "--links-port", "0", "--storage-url", url,
                "--routes", "/nonexistent.json", "--data-dir", TestServer.temporaryDirectory(),
            ], environment: ["LINK_SERVER_SHUTDOWN_GRACE": "3600"])
        let port = try server.waitUntilListening()
        let lock = try HeldLock(url)
        defer { lock.release() }
        let answered = DispatchSemaphore(value: 0)
        let status = Mutex(0)
        DispatchQueue.global().async {
            let reply = try? HTTPClient(port: port).post("/v1/routes", ["path": "/held"])
            status.withLock { $0 = reply?.status ?? -1 }
            answered.signal()
        }
        let waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        #expect(waitUntil(timeout: .seconds(5)) { (try? PostgresTestDatabase.psql(url, waiting)) == "1" })
        server.signal(SIGTERM)
        try server.waitForLog("shutting down")
        server.signal(SIGTERM)
        // The write ends at the database's statement limit (9 s), answered 503; then the process stops cleanly.
        #expect(try server.waitForExit(timeout: .seconds(40)) == 0, "\(server.log.suffix(2000))")
        #expect(answered.wait(timeout: .now() + 10) == .success)
        #expect(status.withLock { $0 } == 503)
        #expect(server.log.contains("stopped"))
    }

    /// A psql session that holds the routes' revision row locked until ``release()``: route writes wait on it.
    final class HeldLock {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()

        init(_ url: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            let plain = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
            process.arguments = ["psql", plain, "-qAt"]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            let statements =
                "BEGIN;\nSELECT revision FROM change_revision WHERE name = 'routes' FOR UPDATE;\n\\echo locked\n"
            input.fileHandleForWriting.write(Data(statements.utf8))
            var seen = ""
            while !seen.contains("locked") {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw HTTPClient.Failure(description: "psql ended: \(seen)") }
                seen += String(decoding: chunk, as: UTF8.self)
            }
        }

        func release() {
            input.fileHandleForWriting.write(Data("COMMIT;\n\\q\n".utf8))
            process.waitUntilExit()
        }
    }

    /// A write that waits on the database past the store's timeout is 503 `unavailable` and is not made: the
    /// database rolls it back first (`statement_timeout`), so a client that retries it makes it once. (It committed
    /// after the 503 once the lock was let go.)
    @Test func aWriteAnswered503IsNotMadeLater() throws {
        let url = try PostgresTestDatabase.create()
        let server = try ServerProcess(arguments: [
            "--host", "127.0.0.1", "--port", "0", "--links-port", "0", "--storage-url", url,
            "--routes", "/nonexistent.json", "--data-dir", TestServer.temporaryDirectory(),
        ])
        let port = try server.waitUntilListening()
        let lock = try HeldLock(url)
        let refused = try HTTPClient(port: port).post("/v1/routes", ["path": "/late"])
        #expect(refused.status == 503 && refused.errorCode == "unavailable", "\(refused.status) \(refused.text)")
        lock.release()
        // Once the lock is let go nothing is left to commit: the route is not there, and a retry makes it.
        let count = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        #expect(waitUntil(timeout: .seconds(5)) { (try? PostgresTestDatabase.psql(url, count)) == "0" })
        #expect(try HTTPClient(port: port).get("/v1/resolve?url=/late").errorCode == "no_match")
        #expect(try HTTPClient(port: port).post("/v1/routes", ["path": "/late"]).status == 201)
    }

    @Test func writesWaitingOnTheDatabaseNeverHoldTheListenerThreads() throws {
        let url = try PostgresTestDatabase.create()
        let server = try ServerProcess(arguments: [
            "--host", "127.0.0.1", "--port", "0", "--links-port", "0", "--threads", "1", "--storage-url", url,
            "--routes", "/nonexistent.json", "--data-dir", TestServer.temporaryDirectory(),
        ])
        try server.waitUntilListening()
        let port = server.port
        #expect(try HTTPClient(port: port).post("/v1/routes", ["path": "/users/:id"]).status == 201)
        let lock = try HeldLock(url)
        // More waiting writes than the listener has threads.
        let writes = DispatchGroup()
        let statuses = Mutex<[Int]>([])
        for index in 0..<6 {
            DispatchQueue.global().async(group: writes) {
                let reply = try? HTTPClient(port: port).post("/v1/routes", ["path": .string("/w\(index)")])
                statuses.withLock { $0.append(reply?.status ?? 0) }
            }
        }
        // One write waits on the row lock in the database; the others wait behind it for the routes' writer.
        let waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        #expect(waitUntil(timeout: .seconds(5)) { (try? PostgresTestDatabase.psql(url, waiting)) == "1" })
        // While all six wait on the lock, resolves and reads are answered.
        for _ in 0..<5 {
            #expect(try HTTPClient(port: port).get("/v1/resolve?url=/users/1").status == 200)
            #expect(try HTTPClient(port: port).get("/healthz").status == 200)
        }
        #expect(statuses.withLock { $0.isEmpty }, "the writes did not wait for the lock")
        lock.release()
        #expect(writes.wait(timeout: .now() + 15) == .success)
        #expect(statuses.withLock { $0 } == Array(repeating: 201, count: 6))
    }
}
