import GRDB
import LinkCore

extension SQLiteStore {
    /// The `maxClicks` counters (API.md §7) and deferred-link tokens (§9).
    static func registerLinkMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("links-v1") { db in
            try db.create(table: "link_click_limit") { t in
                t.primaryKey("pattern", .text)
                t.column("clicks", .integer).notNull()
            }
            try db.create(table: "deferred_token") { t in
                t.primaryKey("token", .text)
                t.column("resolution", .text).notNull()
                t.column("platform", .text).notNull()
                t.column("clicked_at", .integer).notNull()
                t.column("link", .text).notNull()
                t.column("expires_at", .integer).notNull()
                t.column("claimed_at", .integer)
                t.column("install_id", .text)
            }
            try db.create(index: "deferred_token_expiry", on: "deferred_token", columns: ["expires_at"])
        }
    }

    func countLimitedClick(pattern: String, limit: Int) throws -> Bool {
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO link_click_limit (pattern, clicks) VALUES (?, 1)
                    ON CONFLICT(pattern) DO UPDATE SET clicks = clicks + 1 WHERE clicks < ?
                    """, arguments: [pattern, limit])
            return db.changesCount == 1 && (limit >= 1)
        }
    }

    func limitedClicks(pattern: String) throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT clicks FROM link_click_limit WHERE pattern = ?", arguments: [pattern])
                ?? 0
        }
    }

    func saveDeferredToken(_ token: DeferredToken) throws {
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO deferred_token (token, resolution, platform, clicked_at, link, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    token.token, token.resolution.encodedString(), token.platform, token.clickedAt, token.link,
                    token.expiresAt,
                ])
        }
    }

    func claimDeferredToken(_ token: String, installID: String?, now: Int64, repeatWindow: Int64) throws
        -> DeferredToken?
    {
        // Unknown tokens (most of a burst of guesses) are answered by a read, without a write transaction.
        let known = try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM deferred_token WHERE token = ?", arguments: [token]) ?? false
        }
        guard known else { return nil }
        return try database.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT token, resolution, platform, clicked_at, link, expires_at, claimed_at, install_id
                        FROM deferred_token WHERE token = ?
                        """, arguments: [token])
            else { return nil }
            let expiresAt: Int64 = try row.decode(forColumn: "expires_at")
            let claimedAt: Int64? = try row.decode(forColumn: "claimed_at")
            if let claimedAt {
                // A repeat is answered within the window of the first claim, whatever the token's own lifetime.
                let claimedBy: String? = try row.decode(forColumn: "install_id")
                guard let installID, claimedBy == installID, now - claimedAt <= repeatWindow else { return nil }
            } else {
                guard expiresAt > now else { return nil }
                // Kept (not purged) at least as long as a repeat of this claim may come.
                try db.execute(
                    sql: """
                        UPDATE deferred_token SET claimed_at = ?, install_id = ?, expires_at = MAX(expires_at, ?)
                        WHERE token = ?
                        """,
                    arguments: [now, installID, now + repeatWindow, token])
            }
            let resolution =
                (try? JSONParser.parse(Array((try row.decode(String.self, forColumn: "resolution")).utf8))) ?? .null
            return DeferredToken(
                token: try row.decode(forColumn: "token"), resolution: resolution,
                platform: try row.decode(forColumn: "platform"), clickedAt: try row.decode(forColumn: "clicked_at"),
                link: try row.decode(forColumn: "link"), expiresAt: expiresAt)
        }
    }

    func purgeDeferredTokens(before now: Int64) throws -> Int {
        try database.write { db in
            try db.execute(sql: "DELETE FROM deferred_token WHERE expires_at <= ?", arguments: [now])
            return db.changesCount
        }
    }

    func countDeferredTokens() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM deferred_token") ?? 0 }
    }
}

/// A deferred deep link (API.md §9): the resolution at click time, kept for the app to claim after install.
struct DeferredToken: Sendable, Equatable {
    var token: String
    var resolution: JSONValue
    var platform: String
    /// Milliseconds since the Unix epoch.
    var clickedAt: Int64
    /// The link as clicked.
    var link: String
    var expiresAt: Int64
}
