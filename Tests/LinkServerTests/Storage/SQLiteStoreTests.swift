import Foundation
import GRDB
import LinkCore
import Testing

@testable import LinkServer

@Suite struct SQLiteStoreTests {
    @Test func createsTheDatabaseAndAppliesMigrations() throws {
        let directory = TestServer.temporaryDirectory() + "/nested/data"
        let store = try SQLiteStore(directory: directory)
        defer { try? store.close() }
        #expect(FileManager.default.fileExists(atPath: directory + "/linkserver.sqlite"))
        #expect(try store.appliedMigrations().first == "v1")
    }

    @Test func usesWALAndFullSync() throws {
        let store = try SQLiteStore(directory: TestServer.temporaryDirectory())
        defer { try? store.close() }
        let (mode, sync) = try store.database.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(mode == "wal")
        #expect(sync == 2)
    }

    /// An upgrade starts on the routes an earlier version stored, even one a check added since refuses when
    /// registered (`/apple-app-site-association`, a case-insensitive `/Robots.TXT`): the API comes up, and the
    /// route can be seen and removed through it.
    @Test func routesAnEarlierVersionStoredAreServedAfterAnUpgrade() throws {
        let directory = TestServer.temporaryDirectory()
        do {
            let store = try SQLiteStore(directory: directory)
            try store.replaceRouteTrees([
                ["path": "/apple-app-site-association", "name": "old"],
                ["path": "/Robots.TXT", "name": "shop", "caseInsensitive": true],
                // A link template with a control character, refused since; in a child, whose checks are the same.
                [
                    "path": "/promo", "name": "promo",
                    "routes": [
                        ["path": ":code", "name": "code", "link": ["desktop": "https://www.example.com/p/{code}\tx"]]
                    ],
                ],
            ])
            try store.close()
        }
        try withServer(dataDir: directory) { (server) throws in
            let client = server.client()
            #expect(try client.get("/v1/routes/old").status == 200)
            #expect(try client.request("DELETE", "/v1/routes/old", json: .null).status == 204)
            #expect(try client.get("/v1/routes/code").status == 200)
            // Registering one anew is refused.
            #expect(
                try client.post("/v1/routes", ["path": "/apple-app-site-association"]).errorCode == "invalid_pattern")
            #expect(
                try client.post("/v1/routes", ["path": "/other", "link": ["desktop": "https://x.example/\tx"]])
                    .errorCode
                    == "invalid_request")
        }
    }

    @Test func writesSurviveReopening() throws {
        let directory = TestServer.temporaryDirectory()
        do {
            let store = try SQLiteStore(directory: directory)
            try store.setMeta("revision", "41")
            try store.setMeta("revision", "42")
            try store.replaceRouteTrees([["path": "/a"], ["path": "/b", "name": "b"]])
            try store.close()
        }
        let reopened = try SQLiteStore(directory: directory)
        defer { try? reopened.close() }
        #expect(try reopened.meta("revision") == "42")
        #expect(try reopened.meta("missing") == nil)
        #expect(try reopened.loadRouteTrees() == [["path": "/a"], ["path": "/b", "name": "b"]])
        #expect(try reopened.appliedMigrations() == SQLiteStore.migrator.migrations)
        #expect(SQLiteStore.migrator.migrations.first == "v1")
    }

    /// Route trees are written by row (issue 19 item 12): registering one tree writes one row, not the table.
    @Test func routeTreesAreWrittenByRow() throws {
        let store = try SQLiteStore(directory: TestServer.temporaryDirectory())
        defer { try? store.close() }
        func tree(_ path: String) -> JSONValue { ["path": .string(path)] }
        func changes(_ write: () throws -> Void) throws -> Int {
            let before = try store.database.read { $0.totalChangesCount }
            try write()
            return try store.database.read { $0.totalChangesCount } - before
        }
        let hundred = (0..<100).map { tree("/t\($0)") }
        #expect(try changes { try store.replaceRouteTrees(hundred) } == 100)
        #expect(try changes { try store.replaceRouteTrees(hundred + [tree("/new")]) } == 1)
        var edited = hundred + [tree("/new")]
        edited[50] = tree("/edited")
        #expect(try changes { try store.replaceRouteTrees(edited) } == 1)
        #expect(try changes { try store.replaceRouteTrees(Array(edited.prefix(98))) } == 3)
        #expect(try store.loadRouteTrees() == Array(edited.prefix(98)))
    }
}
