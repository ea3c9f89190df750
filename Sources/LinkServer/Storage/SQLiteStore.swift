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
        try SQLiteStore.makeFolder(directory)
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

    /// 503 `unavailable` for a failure of the machine under the database rather than of a request, by SQLite's
    /// primary result code (`details.sqliteCode` has the extended one, which says more):
    /// - `SQLITE_FULL`: the disk is full. The transaction rolled back, nothing was changed, and the same write
    ///   succeeds once the operator has made room.
    /// - `SQLITE_READONLY`: the database cannot be written (its file was moved or deleted while open:
    ///   `SQLITE_READONLY_DBMOVED`, which only a restart mends; or a connection set read-only). Nothing was changed.
    /// - `SQLITE_IOERR`: the file system failed a read or a write (a file system remounted read-only after errors
    ///   fails this way). A write's outcome is then unknown, as for any lost answer: an `fsync` that failed after the
    ///   log's frames were written leaves them to be recovered at the next start.
    ///
    /// `nil` for any other error (a 500, logged).
    static func machineFailure(_ error: any Error) -> LinkError? {
        guard let error = error as? DatabaseError else { return nil }
        let message: String
        let reason: String
        switch error.resultCode {
        case .SQLITE_FULL:
            reason = "the disk is full"
            message = "The store cannot write: the disk is full"
        case .SQLITE_READONLY:
            reason = "the database is read-only"
            message = "The store cannot write: the database is read-only"
        case .SQLITE_IOERR:
            reason = "the file system reported an I/O error"
            message = "The store failed: the file system reported an I/O error"
        default:
            return nil
        }
        return LinkError(
            .unavailable, message,
            details: [
                "store": "sqlite", "reason": .string(reason),
                "sqliteCode": .int(Int(error.extendedResultCode.rawValue)),
            ])
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
        registerSubscriptionMigration(in: &migrator)
        return migrator
    }

    /// Applied migration identifiers, oldest first.
    func appliedMigrations() throws -> [String] {
        try database.read { db in try SQLiteStore.migrator.appliedMigrations(db) }
    }

    func loadRouteTrees() throws -> [JSONValue] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT definition FROM route_tree ORDER BY position").map { text in
                try JSONParser.parse(text, maxDepth: JSONParser.storedMaxDepth)
            }
        }
    }

    /// Writes the API route trees by row: only the positions whose definition changed are written, and rows past
    /// the new end are deleted, so registering one tree writes one row rather than the whole table.
    func replaceRouteTrees(_ trees: [JSONValue]) throws {
        let encoded = trees.map { $0.encodedString() }
        try database.write { db in
            var stored: [Int: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT position, definition FROM route_tree") {
                stored[try row.decode(Int.self, forColumn: "position")] = try row.decode(
                    String.self, forColumn: "definition")
            }
            for (position, definition) in encoded.enumerated() where stored[position] != definition {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO route_tree (position, definition) VALUES (?, ?)",
                    arguments: [position, definition])
            }
            if stored.keys.contains(where: { $0 >= encoded.count }) {
                try db.execute(sql: "DELETE FROM route_tree WHERE position >= ?", arguments: [encoded.count])
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

    /// Makes `directory` and the folders above it that are missing; what stops it is said in the system's words
    /// ("Permission denied", "Not a directory"), naming the setting.
    private static func makeFolder(_ directory: String) throws(ConfigError) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw ConfigError("cannot create storage.dataDir \(directory): \(String(cString: strerror(errno)))")
            }
        }
        var status = stat()
        guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw ConfigError("storage.dataDir \(directory) is not a folder")
        }
    }
}
