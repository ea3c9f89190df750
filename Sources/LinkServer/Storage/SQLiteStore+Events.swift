import GRDB
import LinkCore

extension SQLiteStore {
    /// Event types and their names (API.md §5: kept across restarts).
    static func registerEventMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("events-v1") { db in
            try db.create(table: "event_type") { t in
                t.primaryKey("shape", .text)
                t.column("pattern", .text).notNull()
                t.column("name", .text).unique()
                t.column("position", .integer).notNull()
            }
        }
    }

    func loadEventTypes() throws -> [EventType] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT pattern, name FROM event_type ORDER BY position").map { row in
                EventType(
                    pattern: try Pattern(try row.decode(String.self, forColumn: "pattern")),
                    name: try row.decode(forColumn: "name"))
            }
        }
    }

    /// One process writes the embedded store, its type writes one at a time: what they were planned against is what
    /// is stored, so neither `before` nor `limit` needs a check (the bus checked the limit).
    func saveEventTypes(_ types: [EventType], before: [EventType?], within limit: EventTypeLimit?) throws {
        guard !types.isEmpty else { return }
        try database.write { db in
            // One scan for the position (the primary-key index does not cover it), then one insert per type.
            var position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position), 0) FROM event_type") ?? 0
            for type in types {
                position += 1
                try db.execute(
                    sql: """
                        INSERT INTO event_type (shape, pattern, name, position) VALUES (?, ?, ?, ?)
                        ON CONFLICT(shape) DO UPDATE SET name = excluded.name
                        """,
                    arguments: [type.pattern.shape(), type.pattern.description, type.name, position])
            }
        }
    }

    /// One process, its type writes one at a time: a type withdrawn is one its bus took back too (a type another
    /// subscription holds is kept on both, `LiveEventTypes`), so nothing else holds it.
    func withdrawEventType(_ type: EventType) throws { try deleteEventType(type) }

    func deleteEventType(_ type: EventType) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM event_type WHERE shape = ?", arguments: [type.pattern.shape()])
        }
    }
}
