import LinkCore
import PostgresNIO

/// Presentation slots in PostgreSQL (API.md §11, §12).
extension PostgresStore {
    func loadSlots() throws -> [String: Presentation] {
        var rows: [(String, String, Int, String, Int64, Int64)] = []
        rows = try run { connection, logger in
            var rows: [(String, String, Int, String, Int64, Int64)] = []
            let sequence = try await connection.query(
                "SELECT name, id, priority, payload, since, expires FROM slot", logger: logger)
            for try await row in sequence.decode((String, String, Int, String, Int64, Int64).self) {
                rows.append(row)
            }
            return rows
        }
        var slots: [String: Presentation] = [:]
        for (name, id, priority, payload, since, expires) in rows {
            slots[name] = Presentation(
                id: id, priority: priority, payload: try JSONParser.parse(payload), since: since, expires: expires)
        }
        return slots
    }

    func saveSlot(_ name: String, _ presentation: Presentation?) throws {
        try saveSlot(name, presentation, expecting: nil, events: [])
    }

    func saveSlot(
        _ name: String, _ presentation: Presentation?, replacing previous: Presentation?,
        appending events: [StoredEvent]
    ) throws {
        try saveSlot(
            name, presentation, expecting: .some(previous.map { ($0.id, $0.since, $0.expires, $0.priority) }),
            events: events)
    }

    /// With `expecting`, commits only when the slot still holds that presentation (`id`, `since`, `expires` and
    /// `priority`; `nil` for empty): the slots' revision row is locked first, so presents into one slot are
    /// serialised across instances. An update by the same id keeps `since` and may move `expires` and `priority`: a
    /// change decided on the presentation before it (its expiry, a replacement by priority) must not apply to it.
    private func saveSlot(
        _ name: String, _ presentation: Presentation?,
        expecting: (id: String, since: Int64, expires: Int64, priority: Int)??, events: [StoredEvent]
    ) throws {
        let now = WallClock.milliseconds()
        let row = presentation.map { ($0.id, $0.priority, $0.payload.encodedString(), $0.since, $0.expires) }
        try transaction { connection, logger in
            let revision = try await connection.lockRevision(.slots, logger: logger)
            if let expecting {
                var stored: (String, Int64, Int64, Int)?
                let rows = try await connection.query(
                    "SELECT id, since, expires, priority FROM slot WHERE name = \(name)", logger: logger
                ).decode((String, Int64, Int64, Int).self)
                for try await found in rows { stored = found }
                guard stored?.0 == expecting?.id, stored?.1 == expecting?.since, stored?.2 == expecting?.expires,
                    stored?.3 == expecting?.priority
                else {
                    throw StoreConflict(table: .slots)
                }
            }
            if let (id, priority, payload, since, expires) = row {
                try await connection.query(
                    """
                    INSERT INTO slot (name, id, priority, payload, since, expires)
                    VALUES (\(name), \(id), \(priority), \(payload), \(since), \(expires))
                    ON CONFLICT (name) DO UPDATE SET id = EXCLUDED.id, priority = EXCLUDED.priority,
                        payload = EXCLUDED.payload, since = EXCLUDED.since, expires = EXCLUDED.expires
                    """, logger: logger)
            } else {
                try await connection.query("DELETE FROM slot WHERE name = \(name)", logger: logger)
            }
            try await connection.raiseRevision(.slots, to: revision + 1, logger: logger)
            // Its events in the same transaction: a slot change is never committed without its `slotChanged`, and
            // changes to one slot (serialised by the lock above) get their `seq`s in their own order.
            for event in events {
                _ = try await connection.query(
                    PostgresStore.appending(event, now: now, onlyIfHeard: false), logger: logger
                ).collectRows(Int.self, Int.self)
            }
            return ()
        }
    }
}
