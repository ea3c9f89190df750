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
}
