import GRDB
import LinkCore

extension SQLiteStore {
    /// Click statistics (API.md §8): one row per UTC day × route pattern × platform × kind.
    static func registerClickMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("clicks-v1") { db in
            try db.create(table: "click_count") { t in
                t.column("day", .integer).notNull()
                t.column("pattern", .text).notNull()
                t.column("platform", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("name", .text)
                t.column("count", .integer).notNull()
                t.primaryKey(["day", "pattern", "platform", "kind"])
            }
        }
    }

    func addClickCounts(_ counts: [ClickCount]) throws {
        guard !counts.isEmpty else { return }
        try database.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO click_count (day, pattern, platform, kind, name, count) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(day, pattern, platform, kind)
                    DO UPDATE SET count = count + excluded.count, name = COALESCE(excluded.name, name)
                    """)
            for count in counts {
                try statement.execute(arguments: [
                    count.key.day, count.key.pattern, count.key.platform, count.key.kind.rawValue, count.name,
                    count.count,
                ])
            }
        }
    }

    func loadClickCounts(from: Int64, to: Int64) throws -> [ClickCount] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT day, pattern, platform, kind, name, count FROM click_count WHERE day BETWEEN ? AND ?",
                arguments: [from, to]
            ).compactMap { row in
                guard let kind = ClickKind(rawValue: try row.decode(String.self, forColumn: "kind")) else { return nil }
                return ClickCount(
                    key: ClickKey(
                        day: try row.decode(forColumn: "day"), pattern: try row.decode(forColumn: "pattern"),
                        platform: try row.decode(forColumn: "platform"), kind: kind),
                    name: try row.decode(forColumn: "name"), count: try row.decode(forColumn: "count"))
            }
        }
    }
}
