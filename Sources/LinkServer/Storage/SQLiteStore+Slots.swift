import GRDB
import LinkCore

extension SQLiteStore {
    /// Presentation slots (API.md §11: an acknowledged present or dismiss survives `kill -9`).
    static func registerSlotMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("slots-v1") { db in
            try db.create(table: "slot") { t in
                t.primaryKey("name", .text)
                t.column("id", .text).notNull()
                t.column("priority", .integer).notNull()
                t.column("payload", .text).notNull()
                t.column("since", .integer).notNull()
                t.column("expires", .integer).notNull()
            }
        }
    }

    func loadSlots() throws -> [String: Presentation] {
        try database.read { db in
            var slots: [String: Presentation] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, id, priority, payload, since, expires FROM slot") {
                slots[try row.decode(String.self, forColumn: "name")] = Presentation(
                    id: try row.decode(forColumn: "id"), priority: try row.decode(forColumn: "priority"),
                    payload: try JSONParser.parse(try row.decode(String.self, forColumn: "payload")),
                    since: try row.decode(forColumn: "since"), expires: try row.decode(forColumn: "expires"))
            }
            return slots
        }
    }

    func saveSlot(_ name: String, _ presentation: Presentation?) throws {
        try database.write { db in try SQLiteStore.writeSlot(name, presentation, in: db) }
    }

    /// Sets what slot `name` shows (`nil`: empty) in the transaction of `db` (a slot change's own, or the subscription
    /// journal's, which writes its `slotChanged` events with it).
    static func writeSlot(_ name: String, _ presentation: Presentation?, in db: Database) throws {
        guard let presentation else {
            try db.execute(sql: "DELETE FROM slot WHERE name = ?", arguments: [name])
            return
        }
        try db.execute(
            sql: """
                INSERT INTO slot (name, id, priority, payload, since, expires) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET id = excluded.id, priority = excluded.priority,
                    payload = excluded.payload, since = excluded.since, expires = excluded.expires
                """,
            arguments: [
                name, presentation.id, presentation.priority, presentation.payload.encodedString(),
                presentation.since, presentation.expires,
            ])
    }
}
