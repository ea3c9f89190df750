import Foundation
import GRDB
import LinkCore

/// The embedded default ``Store``: one SQLite database (`linkserver.sqlite`) in the data folder, in WAL mode with
/// `synchronous = FULL`, so a transaction that returned is on disk.
final class SQLiteStore: Store {
    let path: String
    let database: DatabaseQueue
    private let lock: DataFolderLock

    /// Opens (creating when absent) the database in `directory` and runs pending migrations.
    init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        lock = try DataFolderLock(directory: directory)
        path = (directory as NSString).appendingPathComponent("linkserver.sqlite")
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(5)
        database = try DatabaseQueue(path: path, configuration: configuration)
        // Set after opening: GRDB's WAL set-up lowers it to NORMAL, which can lose the last commits on power loss.
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try SQLiteStore.migrator.migrate(database)
    }

    /// The schema, one migration per version; applied in order, each exactly once.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "meta") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
            try db.create(table: "route_tree") { t in
                t.primaryKey("position", .integer)
                t.column("definition", .text).notNull()
            }
        }
        registerEventMigrations(&migrator)
        registerResourceMigration(in: &migrator)
        registerSlotMigration(in: &migrator)
        registerClickMigration(in: &migrator)
        registerLinkMigration(in: &migrator)
        return migrator
    }

    /// Applied migration identifiers, oldest first.
    func appliedMigrations() throws -> [String] {
        try database.read { db in try SQLiteStore.migrator.appliedMigrations(db) }
    }

    func loadRouteTrees() throws -> [JSONValue] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT definition FROM route_tree ORDER BY position").map { text in
                try JSONParser.parse(text, maxDepth: 512)
            }
        }
    }

    func replaceRouteTrees(_ trees: [JSONValue]) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM route_tree")
            for (position, tree) in trees.enumerated() {
                try db.execute(
                    sql: "INSERT INTO route_tree (position, definition) VALUES (?, ?)",
                    arguments: [position, tree.encodedString()])
            }
        }
    }

    func meta(_ key: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
        }
    }

    func setMeta(_ key: String, _ value: String) throws {
        try database.write { db in
            try db.execute(
                sql:
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, value])
        }
    }

    func close() throws {
        defer { lock.release() }
        try database.close()
    }
}
