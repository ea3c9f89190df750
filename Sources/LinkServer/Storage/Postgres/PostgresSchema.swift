import PostgresNIO

/// The shared schema, versioned: each migration runs once, in order, in its own transaction, under an advisory
/// lock so that instances starting together apply it once.
enum PostgresSchema {
    /// `pg_advisory_xact_lock` keys ("LS" and a number).
    static let migrationLock = 0x4C53_0001
    static let sequenceLock = 0x4C53_0002
    /// Serialises sweeps of the event log, so an event removed is counted as missed once.
    static let sweepLock = 0x4C53_0004
    /// Serialises subscription openings, so that the limit on live subscriptions holds (a count and an insert in
    /// each of two concurrent transactions would both find room for one).
    static let subscriptionLimitLock = 0x4C53_0005

    /// Migrations by version; a new one is appended, never edited once released.
    static let migrations: [(version: Int, statements: [String])] = [
        (
            1,
            [
                "CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)",
                // One row per shared table; raised by every committed change to it (API.md §12's per-table revision).
                "CREATE TABLE change_revision (name text PRIMARY KEY, revision bigint NOT NULL)",
                """
                INSERT INTO change_revision (name, revision)
                VALUES ('routes', 0), ('resources', 0), ('event_types', 0), ('slots', 0)
                """,
                "CREATE TABLE route_tree (position bigint PRIMARY KEY, definition text NOT NULL)",
                """
                CREATE TABLE event_type (shape text PRIMARY KEY, pattern text NOT NULL, name text UNIQUE,
                    position bigserial NOT NULL)
                """,
                """
                CREATE TABLE resource (id bigserial PRIMARY KEY, shape text NOT NULL UNIQUE, pattern text NOT NULL,
                    name text UNIQUE, kind text NOT NULL CHECK (kind IN ('value', 'compute')), body text NOT NULL,
                    revision bigint NOT NULL)
                """,
                """
                CREATE TABLE slot (name text PRIMARY KEY, id text NOT NULL, priority bigint NOT NULL,
                    payload text NOT NULL, since bigint NOT NULL, expires bigint NOT NULL)
                """,
                """
                CREATE TABLE click_count (day bigint NOT NULL, pattern text NOT NULL, platform text NOT NULL,
                    kind text NOT NULL, name text, count bigint NOT NULL, PRIMARY KEY (day, pattern, platform, kind))
                """,
                "CREATE TABLE link_click_limit (pattern text PRIMARY KEY, clicks bigint NOT NULL)",
                """
                CREATE TABLE deferred_token (token text PRIMARY KEY, resolution text NOT NULL, platform text NOT NULL,
                    clicked_at bigint NOT NULL, link text NOT NULL, expires_at bigint NOT NULL, claimed_at bigint,
                    install_id text)
                """,
                "CREATE INDEX deferred_token_expiry ON deferred_token (expires_at)",
            ]
        ),
        (
            2,
            [
                // The shared event bus (API.md §12). The `events` revision is the last `seq`, continuing from the
                // blocks version 1 handed out; an emit raises it under the row lock, so `seq` order is commit order.
                """
                INSERT INTO change_revision (name, revision)
                SELECT 'events', COALESCE((SELECT value::bigint FROM meta WHERE key = 'events.seqReserved'), 0)
                """,
                "INSERT INTO change_revision (name, revision) VALUES ('subscriptions', 0)",
                // One row per emit: the pattern shapes it matched (best first) and each match's event, without `seq`.
                "CREATE TABLE event_log (seq bigint PRIMARY KEY, shapes text[] NOT NULL, body text NOT NULL)",
                // `acked`: events up to it are acknowledged; `dropped`: events removed from the log before this
                // subscription acknowledged them, all at or below `dropped_through`; `active_until`: the end of its
                // last poll's wait (ms), so it expires `ttl_ms` after that; `generation`: raised by every poll that
                // waits, so an older waiting poll on another instance is released.
                """
                CREATE TABLE event_subscription (id text PRIMARY KEY, shapes text[] NOT NULL, acked bigint NOT NULL,
                    cursor bigint NOT NULL, dropped bigint NOT NULL DEFAULT 0, dropped_through bigint NOT NULL DEFAULT 0,
                    ttl_ms bigint NOT NULL, active_until bigint NOT NULL, generation bigint NOT NULL DEFAULT 0)
                """,
            ]
        ),
        (
            3,
            [
                // The shapes of removed types a subscription had, each with the last `seq` committed when it was
                // removed: the events of it queued by then are still delivered (API.md §5: events stay queued until
                // acknowledged), none after (its subscriptions stop receiving it).
                """
                ALTER TABLE event_subscription ADD COLUMN retired text[] NOT NULL DEFAULT '{}',
                    ADD COLUMN retired_through bigint[] NOT NULL DEFAULT '{}'
                """
            ]
        ),
    ]
}

extension PostgresStore {
    /// Applies the migrations the database has not seen yet; answers the versions applied now.
    @discardableResult
    func migrate() throws -> [Int] {
        try transaction { connection, logger in
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS linkserver_schema (version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            let applied = Set(
                try await connection.query("SELECT version FROM linkserver_schema", logger: logger)
                    .collectColumn(Int32.self).map(Int.init))
            var now: [Int] = []
            for migration in PostgresSchema.migrations where !applied.contains(migration.version) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                let version = Int32(migration.version)
                try await connection.query(
                    "INSERT INTO linkserver_schema (version) VALUES (\(version))", logger: logger)
                now.append(migration.version)
            }
            return now
        }
    }

    /// Every applied migration version, oldest first.
    func appliedMigrations() throws -> [Int] {
        try run { connection, logger in
            try await connection.query("SELECT version FROM linkserver_schema ORDER BY version", logger: logger)
                .collectColumn(Int32.self).map(Int.init)
        }
    }
}

extension PostgresConnection {
    /// Locks `table`'s revision row until the transaction ends and answers the revision.
    func lockRevision(_ table: SharedTable, logger: Logger) async throws -> Int {
        guard
            let revision = try await query(
                "SELECT revision FROM change_revision WHERE name = \(table.rawValue) FOR UPDATE", logger: logger
            ).collectColumn(Int.self).first
        else { throw PostgresStoreError.unexpected("no revision row for \(table.rawValue)") }
        return revision
    }

    /// Sets `table`'s revision and announces it (`NOTIFY`, delivered only if the transaction commits).
    @discardableResult
    func raiseRevision(_ table: SharedTable, to revision: Int, logger: Logger) async throws -> Int {
        try await query(
            "UPDATE change_revision SET revision = \(revision) WHERE name = \(table.rawValue)", logger: logger)
        let payload = table.rawValue + ":" + String(revision)
        try await query("SELECT pg_notify('linkserver_changes', \(payload))", logger: logger)
        return revision
    }

    /// Raises `table`'s revision by one (locking its row) and announces it.
    @discardableResult
    func bumpRevision(_ table: SharedTable, logger: Logger) async throws -> Int {
        let current = try await lockRevision(table, logger: logger)
        return try await raiseRevision(table, to: current + 1, logger: logger)
    }
}

extension PostgresRowSequence {
    /// Every value of a one-column result.
    func collectColumn<Value: PostgresDecodable & Sendable>(_ type: Value.Type) async throws -> [Value] {
        var values: [Value] = []
        for try await value in decode(Value.self) { values.append(value) }
        return values
    }

    /// Every row of a two-column result.
    func collectRows<First: PostgresDecodable & Sendable, Second: PostgresDecodable & Sendable>(
        _ first: First.Type, _ second: Second.Type
    ) async throws -> [(First, Second)] {
        var rows: [(First, Second)] = []
        for try await row in decode((First, Second).self) { rows.append(row) }
        return rows
    }
}
