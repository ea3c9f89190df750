import GRDB
import LinkCore

/// Resources in SQLite: one row per resource (creation order is the row id) and the global resource revision in
/// `meta`, both written in the same transaction.
extension SQLiteStore {
    /// The `meta` key of the global resource revision.
    static let resourceRevisionKey = "resources.revision"

    /// Migration `resources-v1`: the `resource` table.
    static func registerResourceMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("resources-v1") { db in
            try db.create(table: "resource") { t in
                // The row id: creation order, kept by updates (an upsert updates the row in place).
                t.column("id", .integer).primaryKey()
                // The pattern with parameter names ignored: what makes two resources the same.
                t.column("shape", .text).notNull().unique()
                t.column("pattern", .text).notNull()
                t.column("name", .text).unique()
                t.column("kind", .text).notNull().check { ["value", "compute"].contains($0) }
                // JSON text of the value or of the rule's expression.
                t.column("body", .text).notNull()
                t.column("revision", .integer).notNull()
            }
        }
    }

    func loadResources() throws -> (resources: [Resource], revision: Int) {
        try database.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT pattern, name, kind, body, revision FROM resource ORDER BY id")
            let resources = try rows.map { row in
                let body = try JSONParser.parse(
                    try row.decode(String.self, forColumn: "body"), maxDepth: JSONParser.storedMaxDepth)
                let kind: String = try row.decode(forColumn: "kind")
                return Resource(
                    pattern: try Pattern(try row.decode(String.self, forColumn: "pattern")),
                    name: try row.decode(forColumn: "name"),
                    content: kind == "compute" ? try .compute(expression: body) : .value(body),
                    revision: try row.decode(forColumn: "revision"))
            }
            let revision = try Int.fetchOne(
                db, sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?",
                arguments: [SQLiteStore.resourceRevisionKey])
            return (resources, revision ?? 0)
        }
    }

    func saveResourceChange(_ change: ResourceChange, revision: Int) throws {
        try database.write { db in
            let resource = change.resource
            if case .deleted = change {
                try db.execute(sql: "DELETE FROM resource WHERE shape = ?", arguments: [resource.shape])
            } else {
                let (kind, body): (String, JSONValue) =
                    switch resource.content {
                    case .value(let value): ("value", value)
                    case .compute(let rule): ("compute", rule.expression)
                    }
                try db.execute(
                    sql: """
                        INSERT INTO resource (shape, pattern, name, kind, body, revision) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT(shape) DO UPDATE SET pattern = excluded.pattern, name = excluded.name,
                            kind = excluded.kind, body = excluded.body, revision = excluded.revision
                        """,
                    arguments: [
                        resource.shape, resource.pattern.description, resource.name, kind, body.encodedString(),
                        resource.revision,
                    ])
            }
            try db.execute(
                sql:
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [SQLiteStore.resourceRevisionKey, String(revision)])
        }
    }
}
