import LinkCore
import PostgresNIO

/// Event types in PostgreSQL (API.md §5: kept, with their names; §12: shared by every instance).
extension PostgresStore {
    func loadEventTypes() throws -> [EventType] {
        try run { connection, logger in
            try await connection.query("SELECT pattern, name FROM event_type ORDER BY position", logger: logger)
                .collectRows(String.self, String?.self)
        }.map { pattern, name in EventType(pattern: try Pattern(pattern), name: name) }
    }

    func saveEventTypes(_ types: [EventType], before: [EventType?], within limit: EventTypeLimit?) throws {
        guard !types.isEmpty else { return }
        let rows = types.map { ($0.pattern.shape(), $0.pattern.description, $0.name) }
        let expected = before.map { $0.map { (shape: $0.pattern.shape(), name: $0.name) } }
        try transaction { connection, logger in
            // Type writes take turns: `ON CONFLICT (shape)` covers only the shape, so two instances inserting the
            // same new type at once raced on the unique name, and the second failed with a unique violation
            // (`name_conflict`) for the very binding the first had just made. Registering types is rare.
            try await connection.query("LOCK TABLE event_type IN SHARE ROW EXCLUSIVE MODE", logger: logger)
            // Planned against what this instance had followed: when another instance changed the same types since,
            // the write is planned again (two instances naming one pattern at once were both answered 201, and the
            // later name replaced the earlier; a type both registered was 201 twice).
            for ((shape, _, name), expected) in zip(rows, expected) {
                let stored = try await connection.query(
                    "SELECT name FROM event_type WHERE shape = \(shape)", logger: logger
                ).collectColumn(String?.self)
                let unchanged =
                    switch (stored.first, expected) {
                    case (nil, nil): true
                    case (let stored?, let expected?): stored == expected.name
                    default: false
                    }
                guard unchanged else { throw StoreConflict(table: .eventTypes) }
                if let name {
                    let elsewhere = try await connection.query(
                        "SELECT 1 FROM event_type WHERE name = \(name) AND shape <> \(shape)", logger: logger
                    ).collectColumn(Int.self)
                    guard elsewhere.isEmpty else { throw StoreConflict(table: .eventTypes) }
                }
            }
            // Counted under the table's lock: each instance planned against the types it followed, so several
            // registering at once all found room. Only growth is refused, as the bus refuses it; the types planned
            // as new (`before` nil) are new, as the check above found.
            let added = before.count { $0 == nil }
            if let limit, added > 0 {
                let count =
                    try await connection.query("SELECT count(*) FROM event_type", logger: logger)
                    .collectColumn(Int.self).first ?? 0
                if count + added > limit.stored { throw limit.error }
            }
            for (shape, pattern, name) in rows {
                try await connection.query(
                    """
                    INSERT INTO event_type (shape, pattern, name) VALUES (\(shape), \(pattern), \(name))
                    ON CONFLICT (shape) DO UPDATE SET name = EXCLUDED.name
                    """, logger: logger)
            }
            try await connection.bumpRevision(.eventTypes, logger: logger)
            return ()
        }
    }

    func withdrawEventType(_ type: EventType) throws {
        let shape = type.pattern.shape()
        let name = type.name ?? ""
        try transaction { connection, logger in
            try await connection.query("LOCK TABLE event_type IN SHARE ROW EXCLUSIVE MODE", logger: logger)
            let removed = try await connection.query(
                """
                DELETE FROM event_type WHERE shape = \(shape) AND COALESCE(name, '') = \(name)
                    AND NOT EXISTS (SELECT 1 FROM event_subscription WHERE \(shape) = ANY(shapes))
                RETURNING shape
                """, logger: logger
            ).collectColumn(String.self)
            if !removed.isEmpty { try await connection.bumpRevision(.eventTypes, logger: logger) }
            return ()
        }
    }

    func deleteEventType(_ type: EventType) throws {
        let shape = type.pattern.shape()
        try transaction { connection, logger in
            // The table first, then the `events` row, as a subscription takes them: never a cycle, and an emit
            // (which needs that row) does not wait while this waits for a subscription being made.
            try await connection.query("LOCK TABLE event_type IN SHARE ROW EXCLUSIVE MODE", logger: logger)
            // FOR SHARE: an emit under way (which holds the row from its `seq` to its commit) commits first, so the
            // `seq` read is the last one that can carry the type for its subscriptions; a later emit waits for this
            // removal and no longer reaches them.
            let through =
                try await connection.query(
                    "SELECT revision FROM change_revision WHERE name = 'events' FOR SHARE", logger: logger
                ).collectColumn(Int.self).first ?? 0
            try await connection.query("DELETE FROM event_type WHERE shape = \(shape)", logger: logger)
            // Its subscriptions stop receiving it (API.md §5), also once the same pattern is registered again:
            // delivery compares shapes, so the shape leaves every subscription with the type. What they had queued
            // of it stays theirs until acknowledged: the shape is kept as retired through the last `seq` committed.
            try await connection.query(
                """
                UPDATE event_subscription SET shapes = array_remove(shapes, \(shape)),
                    retired = retired || \(shape)::text,
                    retired_through = retired_through || \(through)::bigint
                WHERE \(shape) = ANY(shapes)
                """, logger: logger)
            try await connection.bumpRevision(.eventTypes, logger: logger)
            return ()
        }
    }
}
