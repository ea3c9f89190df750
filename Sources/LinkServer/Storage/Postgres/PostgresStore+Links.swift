import LinkCore
import PostgresNIO

/// Click statistics (API.md §8), `maxClicks` counters (§7) and deferred-link tokens (§9) in PostgreSQL: each a
/// single statement whose row lock makes it exact across instances.
extension PostgresStore {
    func addClickCounts(_ counts: [ClickCount]) throws {
        guard !counts.isEmpty else { return }
        // A fixed order, so two instances writing the same keys never wait on each other in a cycle.
        let sorted = counts.sorted {
            ($0.key.day, $0.key.pattern, $0.key.platform, $0.key.kind.rawValue)
                < ($1.key.day, $1.key.pattern, $1.key.platform, $1.key.kind.rawValue)
        }
        let rows = sorted.map { ($0.key.day, $0.key.pattern, $0.key.platform, $0.key.kind.rawValue, $0.name, $0.count) }
        try transaction { connection, logger in
            for (day, pattern, platform, kind, name, count) in rows {
                try await connection.query(
                    """
                    INSERT INTO click_count (day, pattern, platform, kind, name, count)
                    VALUES (\(day), \(pattern), \(platform), \(kind), \(name), \(count))
                    ON CONFLICT (day, pattern, platform, kind) DO UPDATE
                    SET count = click_count.count + EXCLUDED.count, name = COALESCE(EXCLUDED.name, click_count.name)
                    """, logger: logger)
            }
            return ()
        }
    }

    func loadClickCounts(from: Int64, to: Int64) throws -> [ClickCount] {
        let rows = try run { connection, logger in
            var rows: [(Int64, String, String, String, String?, Int)] = []
            let sequence = try await connection.query(
                "SELECT day, pattern, platform, kind, name, count FROM click_count WHERE day BETWEEN \(from) AND \(to)",
                logger: logger)
            for try await row in sequence.decode((Int64, String, String, String, String?, Int).self) {
                rows.append(row)
            }
            return rows
        }
        return rows.compactMap { day, pattern, platform, kind, name, count in
            guard let kind = ClickKind(rawValue: kind) else { return nil }
            return ClickCount(
                key: ClickKey(day: day, pattern: pattern, platform: platform, kind: kind), name: name, count: count)
        }
    }

    /// One conditional upsert: the row lock serialises instances and `WHERE clicks < limit` is checked on the
    /// latest row, so exactly `limit` clicks are ever counted.
    func countLimitedClick(pattern: String, limit: Int) throws -> Bool {
        guard limit >= 1 else { return false }
        return try run(timeout: PostgresStore.clickTimeout) { connection, logger in
            try await !connection.query(
                """
                INSERT INTO link_click_limit (pattern, clicks) VALUES (\(pattern), 1)
                ON CONFLICT (pattern) DO UPDATE SET clicks = link_click_limit.clicks + 1
                WHERE link_click_limit.clicks < \(limit)
                RETURNING clicks
                """, logger: logger
            ).collectColumn(Int.self).isEmpty
        }
    }

    func limitedClicks(pattern: String) throws -> Int {
        try run(timeout: PostgresStore.clickTimeout) { connection, logger in
            try await connection.query("SELECT clicks FROM link_click_limit WHERE pattern = \(pattern)", logger: logger)
                .collectColumn(Int.self).first ?? 0
        }
    }

    func saveDeferredToken(_ token: DeferredToken) throws {
        let resolution = token.resolution.encodedString()
        try run(timeout: PostgresStore.clickTimeout) { connection, logger in
            try await connection.query(
                """
                INSERT INTO deferred_token (token, resolution, platform, clicked_at, link, expires_at)
                VALUES (\(token.token), \(resolution), \(token.platform), \(token.clickedAt), \(token.link),
                    \(token.expiresAt))
                """, logger: logger)
            return ()
        }
    }

    /// The first claim is one conditional `UPDATE … RETURNING`: of two instances claiming at once, exactly one gets
    /// the row, which is then kept at least for the repeat window. A repeat by the same install within the window
    /// (whatever the token's own lifetime) is then answered by a read.
    func claimDeferredToken(_ token: String, installID: String?, now: Int64, repeatWindow: Int64) throws
        -> DeferredToken?
    {
        typealias Row = (String, String, String, Int64, String, Int64, Int64?, String?)
        let row: Row? = try run(commits: true) { connection, logger in
            var claimed: [Row] = []
            let first = try await connection.query(
                """
                UPDATE deferred_token
                SET claimed_at = \(now), install_id = \(installID), expires_at = GREATEST(expires_at, \(now + repeatWindow))
                WHERE token = \(token) AND claimed_at IS NULL AND expires_at > \(now)
                RETURNING token, resolution, platform, clicked_at, link, expires_at, NULL::bigint, NULL::text
                """, logger: logger)
            for try await row in first.decode(Row.self) { claimed.append(row) }
            if let row = claimed.first { return row }
            guard installID != nil else { return nil }
            let repeated = try await connection.query(
                """
                SELECT token, resolution, platform, clicked_at, link, expires_at, claimed_at, install_id
                FROM deferred_token WHERE token = \(token) AND claimed_at IS NOT NULL
                """, logger: logger)
            for try await row in repeated.decode(Row.self) { claimed.append(row) }
            return claimed.first
        }
        guard let (found, resolution, platform, clickedAt, link, expiresAt, claimedAt, claimedBy) = row else {
            return nil
        }
        if let claimedAt {
            guard let installID, claimedBy == installID, now - claimedAt <= repeatWindow else { return nil }
        }
        return DeferredToken(
            token: found, resolution: (try? JSONParser.parse(Array(resolution.utf8))) ?? .null, platform: platform,
            clickedAt: clickedAt, link: link, expiresAt: expiresAt)
    }

    func purgeDeferredTokens(before now: Int64) throws -> Int {
        try run { connection, logger in
            try await connection.query(
                "DELETE FROM deferred_token WHERE expires_at <= \(now) RETURNING 1", logger: logger
            ).collectColumn(Int32.self).count
        }
    }

    func countDeferredTokens() throws -> Int {
        try run { connection, logger in
            try await connection.query("SELECT count(*) FROM deferred_token", logger: logger).collectColumn(Int.self)
                .first ?? 0
        }
    }
}
