import LinkCore
import PostgresNIO

/// Resources in PostgreSQL. The global resource revision is the `resources` row of `change_revision`: a change is
/// committed only when it is exactly one above the stored revision, so two instances never commit revisions
/// computed from the same state (the later one gets ``StoreConflict``, re-reads and recomputes: `If-Match` holds
/// across instances).
extension PostgresStore {
    func loadResources() throws -> (resources: [Resource], revision: Int) {
        let (rows, revision) = try transaction { connection, logger in
            // One snapshot for the rows and the revision.
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger)
            let revision = try await connection.query(
                "SELECT revision FROM change_revision WHERE name = 'resources'", logger: logger
            ).collectColumn(Int.self).first
            var rows: [(String, String?, String, String, Int)] = []
            let sequence = try await connection.query(
                "SELECT pattern, name, kind, body, revision FROM resource ORDER BY id", logger: logger)
            for try await row in sequence.decode((String, String?, String, String, Int).self) { rows.append(row) }
            return (rows, revision ?? 0)
        }
        let resources = try rows.map { pattern, name, kind, body, revision in
            let json = try JSONParser.parse(body, maxDepth: JSONParser.storedMaxDepth)
            return Resource(
                pattern: try Pattern(pattern), name: name,
                content: kind == "compute" ? try .compute(expression: json) : .value(json), revision: revision)
        }
        return (resources, revision)
    }

    func saveResourceChange(_ change: ResourceChange, revision: Int) throws {
        let resource = change.resource
        let shape = resource.shape
        let deleted = if case .deleted = change { true } else { false }
        let (kind, body): (String, JSONValue) =
            switch resource.content {
            case .value(let value): ("value", value)
            case .compute(let rule): ("compute", rule.expression)
            }
        let pattern = resource.pattern.description
        let name = resource.name
        let text = body.encodedString()
        let resourceRevision = resource.revision
        try transaction { connection, logger in
            let current = try await connection.lockRevision(.resources, logger: logger)
            guard current == revision - 1 else { throw StoreConflict(table: .resources) }
            if deleted {
                try await connection.query("DELETE FROM resource WHERE shape = \(shape)", logger: logger)
            } else {
                try await connection.query(
                    """
                    INSERT INTO resource (shape, pattern, name, kind, body, revision)
                    VALUES (\(shape), \(pattern), \(name), \(kind), \(text), \(resourceRevision))
                    ON CONFLICT (shape) DO UPDATE SET pattern = EXCLUDED.pattern, name = EXCLUDED.name,
                        kind = EXCLUDED.kind, body = EXCLUDED.body, revision = EXCLUDED.revision
                    """, logger: logger)
            }
            try await connection.raiseRevision(.resources, to: revision, logger: logger)
            return ()
        }
    }
}
