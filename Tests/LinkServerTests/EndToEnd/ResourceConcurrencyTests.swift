import Foundation
import LinkCore
import Synchronization
import Testing

@testable import LinkServer

/// Writers and readers at once over HTTP: each write gets its own revision, in commit order, and every read is
/// one consistent snapshot.
@Suite struct ResourceConcurrencyTests {
    /// What the threads saw, collected under a lock.
    final class Observations: Sendable {
        struct State {
            /// Revision → the value written with it.
            var written: [Int: JSONValue] = [:]
            /// Each writer's revisions, in the order it got them.
            var writerRevisions: [[Int]] = []
            /// (revision, value) pairs read back.
            var read: [(Int, JSONValue)] = []
            var failures: [String] = []
        }

        let state = Mutex(State())

        func fail(_ message: String) { state.withLock { $0.failures.append(message) } }
    }

    static let writers = 4
    static let readers = 4
    static let writesPerWriter = 25
    static let readsPerReader = 60

    @Test func concurrentWritesAndReadsStayConsistent() throws {
        try withServer({ $0.server.threads = 4 }) { server throws in
            let port = server.port
            let observations = Observations()
            for writer in 0..<Self.writers {
                let reply = try server.client().post(
                    "/v1/resources",
                    ["path": .string("/w/\(writer)/:x"), "value": ["writer": .int(writer), "step": -1]])
                #expect(reply.status == 201)
                if let revision = reply.json?["revision"]?.intValue {
                    observations.state.withLock { $0.written[revision] = ["writer": .int(writer), "step": -1] }
                }
            }
            let done = DispatchGroup()
            for writer in 0..<Self.writers {
                done.enter()
                Thread.detachNewThread {
                    defer { done.leave() }
                    Self.write(writer: writer, port: port, observations: observations)
                }
            }
            for reader in 0..<Self.readers {
                done.enter()
                Thread.detachNewThread {
                    defer { done.leave() }
                    Self.read(reader: reader, port: port, observations: observations)
                }
            }
            #expect(done.wait(timeout: .now() + 120) == .success)

            let state = observations.state.withLock { $0 }
            #expect(state.failures.isEmpty, "\(state.failures.prefix(5))")
            let total = Self.writers * (Self.writesPerWriter + 1)
            // One revision per write, none shared, none skipped.
            #expect(state.written.keys.sorted() == Array(1...total))
            for revisions in state.writerRevisions {
                #expect(revisions == revisions.sorted() && Set(revisions).count == revisions.count)
            }
            // Every value read is exactly the one written with the revision it came with.
            #expect(!state.read.isEmpty)
            for (revision, value) in state.read {
                #expect(state.written[revision] == value, "revision \(revision)")
            }
            let list = try server.client().get("/v1/resources")
            #expect(list.header("ETag") == "\"\(total)\"")
        }
    }

    private static func write(writer: Int, port: UInt16, observations: Observations) {
        let client = HTTPClient(port: port)
        var revisions: [Int] = []
        for step in 0..<writesPerWriter {
            let value: JSONValue = ["writer": .int(writer), "step": .int(step)]
            do {
                let reply = try client.request(
                    "PATCH", "/v1/resources", json: ["path": .string("/w/\(writer)/:y"), "value": value])
                guard reply.status == 200, let revision = reply.json?["revision"]?.intValue,
                    reply.header("ETag") == "\"\(revision)\""
                else {
                    observations.fail("writer \(writer): \(reply.status) \(reply.text)")
                    continue
                }
                revisions.append(revision)
                observations.state.withLock { $0.written[revision] = value }
            } catch {
                observations.fail("writer \(writer): \(error)")
            }
        }
        observations.state.withLock { $0.writerRevisions.append(revisions) }
    }

    private static func read(reader: Int, port: UInt16, observations: Observations) {
        let client = HTTPClient(port: port)
        var lastListRevision = 0
        for index in 0..<readsPerReader {
            do {
                if index % 3 == 0 {
                    // A list is one snapshot: its tag is at least every revision in it, and never goes back.
                    let list = try client.get("/v1/resources")
                    let tag = Int(list.header("ETag")?.replacingOccurrences(of: "\"", with: "") ?? "") ?? -1
                    let items = list.json?["resources"]?.arrayValue ?? []
                    let revisions = items.compactMap { $0["revision"]?.intValue }
                    if tag < lastListRevision || revisions.contains(where: { $0 > tag })
                        || Set(revisions).count != revisions.count
                    {
                        observations.fail("reader \(reader): list tag \(tag) after \(lastListRevision), \(revisions)")
                    }
                    lastListRevision = tag
                    observations.state.withLock { state in
                        for item in items {
                            if let revision = item["revision"]?.intValue, let value = item["value"] {
                                state.read.append((revision, value))
                            }
                        }
                    }
                } else {
                    let writer = (reader + index) % writers
                    let reply = try client.get("/v1/resources?loc=/w/\(writer)/\(index)")
                    guard reply.status == 200, let revision = reply.json?["resource"]?["revision"]?.intValue,
                        let value = reply.json?["value"], reply.header("ETag") == "\"\(revision)\""
                    else {
                        observations.fail("reader \(reader): \(reply.status) \(reply.text)")
                        continue
                    }
                    observations.state.withLock { $0.read.append((revision, value)) }
                }
            } catch {
                observations.fail("reader \(reader): \(error)")
            }
        }
    }
}
