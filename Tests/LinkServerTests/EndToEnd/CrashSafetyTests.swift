import Dispatch
import Foundation
import LinkCore
import LinkTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Crash safety (issue 7, part 6): several clients write route trees and resources to the real server process,
/// which is killed with SIGKILL at a seeded moment while writes are in flight. After each restart every write that
/// got a 2xx is there, and a write cut off without an answer is there entirely or not at all (a route tree's parent
/// and child together). `CRASH_TEST_ROUNDS` rounds (default 20) on one data folder; a last restart checks all.
///
/// Nothing waits on a clock: the kill comes once the clients hold a seeded number of acknowledgements, restarts
/// wait for the `listening` line, and each client stops at its first request that gets no answer.
@Suite(.serialized) struct CrashSafetyTests {
    static let seed: UInt64 = 0x4C49_4E4B_0007
    static let writers = 4
    /// Each client's most writes in one round; the kill always comes first (see `killAfter`). Kept small: every
    /// route write rewrites all API routes, so a round's cost grows with the routes of the rounds before.
    static let writesPerClient = 40

    @Test func acknowledgedWritesSurviveKill9AtRandomMoments() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["CRASH_TEST_ROUNDS"] ?? "") ?? 20
        var random = SplitMix64(seed: Self.seed)
        let dataDir = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let arguments = ["--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--routes", "/nonexistent.json"]
        var acknowledged: [Write] = []
        var interrupted = 0
        var previousRound = Ledger()
        var resources: Bool?

        for round in 0..<rounds {
            let server = try ServerProcess(arguments: arguments)
            let client = HTTPClient(port: try server.waitUntilListening())
            try check(previousRound, client: client, round: round)
            if resources == nil { resources = try client.get("/v1/resources").status == 200 }

            let killAfter = Int(random.next(below: UInt64(Self.writers * Self.writesPerClient / 2))) + 1
            let ledger = Ledger()
            let group = DispatchGroup()
            let port = client.port
            for writer in 0..<Self.writers {
                let plan = WritePlan(round: round, writer: writer, resources: resources == true, seed: random.next())
                DispatchQueue.global().async(group: group) { plan.run(port: port, ledger: ledger) }
            }
            let reached = waitUntil(timeout: .seconds(30)) { ledger.acknowledged.count >= killAfter }
            server.signal(SIGKILL)
            _ = try server.waitForExit()
            #expect(group.wait(timeout: .now() + 30) == .success, "round \(round): a client did not stop")
            #expect(reached, "round \(round): only \(ledger.acknowledged.count) of \(killAfter) writes acknowledged")
            #expect(ledger.refused.isEmpty, "round \(round): writes refused: \(ledger.refused.prefix(3))")
            acknowledged += ledger.acknowledged
            interrupted += ledger.interrupted.count
            previousRound = ledger
        }

        let server = try ServerProcess(arguments: arguments)
        let client = HTTPClient(port: try server.waitUntilListening())
        try check(previousRound, client: client, round: rounds)
        try expectPresent(acknowledged, client: client, round: rounds)
        server.signal(SIGTERM)
        #expect(try server.waitForExit() == 0)
        let kept = acknowledged.filter { $0.kind == .resource }.count
        print(
            "crash safety: \(rounds) rounds, \(acknowledged.count) acknowledged writes kept (\(kept) resources),",
            "\(interrupted) cut off by kill -9 (each all or nothing)")
    }

    /// The acknowledged writes of a round are there; those cut off are there whole or not at all.
    private func check(_ round: Ledger, client: HTTPClient, round number: Int) throws {
        try expectPresent(round.acknowledged, client: client, round: number)
        for write in round.interrupted {
            switch write.kind {
            case .route:
                let parent = try client.get("/v1/routes/\(write.name)").status
                let child = try client.get("/v1/routes/\(write.name).child").status
                #expect(parent == child, "round \(number): route tree \(write.name) half kept: \(parent), \(child)")
            case .resource:
                let reply = try client.get("/v1/resources?loc=\(write.path)")
                #expect(reply.status == 404 || reply.json?["value"] == .int(write.value), "round \(number)")
            }
        }
    }

    private func expectPresent(_ writes: [Write], client: HTTPClient, round: Int) throws {
        for write in writes {
            switch write.kind {
            case .route:
                let reply = try client.get("/v1/routes/\(write.name)")
                #expect(reply.status == 200, "round \(round): acknowledged route \(write.name) lost")
                #expect(reply.json?["destination"] == .int(write.value), "round \(round): route \(write.name)")
                let child = try client.get("/v1/routes/\(write.name).child")
                #expect(child.json?["pattern"]?.stringValue == write.path + "/child", "round \(round)")
            case .resource:
                let reply = try client.get("/v1/resources?loc=\(write.path)")
                #expect(reply.status == 200, "round \(round): acknowledged resource \(write.path) lost")
                #expect(reply.json?["value"] == .int(write.value), "round \(round): resource \(write.path)")
            }
        }
    }
}

/// One write: a route tree (a route and one child) or a resource.
private struct Write: Sendable {
    enum Kind: Sendable { case route, resource }
    var kind: Kind
    var name: String
    var path: String
    var value: Int

    var target: String { kind == .route ? "/v1/routes" : "/v1/resources" }

    var body: JSONValue {
        switch kind {
        case .route:
            [
                "path": .string(path), "name": .string(name), "destination": .int(value),
                "routes": [["path": "child", "name": .string(name + ".child")]],
            ]
        case .resource:
            ["path": .string(path), "value": .int(value)]
        }
    }
}

/// One client's writes in one round: route trees, mixed with resources by a seeded choice when the server has them.
private struct WritePlan: Sendable {
    var round: Int
    var writer: Int
    var resources: Bool
    var seed: UInt64

    /// Writes until a request gets no answer (the kill) or the cap, recording every outcome in `ledger`.
    func run(port: UInt16, ledger: Ledger) {
        var random = SplitMix64(seed: seed)
        let client = HTTPClient(port: port)
        for index in 0..<CrashSafetyTests.writesPerClient {
            let value = (round * 100 + writer) * 1000 + index
            let write =
                resources && random.next(below: 2) == 0
                ? Write(kind: .resource, name: "", path: "/r/\(value)", value: value)
                : Write(kind: .route, name: "k\(value)", path: "/k/\(round)/\(writer)/\(index)", value: value)
            guard let reply = try? client.post(write.target, write.body) else {
                ledger.record(interrupted: write)
                return
            }
            guard reply.status == 200 || reply.status == 201 else {
                ledger.record(refused: "\(write.target) \(write.body) → \(reply.status) \(reply.text)")
                return
            }
            ledger.record(acknowledged: write)
        }
    }
}

/// What happened to the writes of one round, shared by the client threads and the test.
private final class Ledger: Sendable {
    private struct State {
        var acknowledged: [Write] = []
        var interrupted: [Write] = []
        var refused: [String] = []
    }

    private let state = Mutex(State())

    func record(acknowledged write: Write) { state.withLock { $0.acknowledged.append(write) } }
    func record(interrupted write: Write) { state.withLock { $0.interrupted.append(write) } }
    func record(refused description: String) { state.withLock { $0.refused.append(description) } }

    var acknowledged: [Write] { state.withLock { $0.acknowledged } }
    var interrupted: [Write] { state.withLock { $0.interrupted } }
    var refused: [String] { state.withLock { $0.refused } }
}
