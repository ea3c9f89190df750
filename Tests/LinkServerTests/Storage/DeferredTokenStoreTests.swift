import Foundation
import GRDB
import LinkCore
import Testing

@testable import LinkServer

/// Deferred-link tokens in the store (API.md §9): claimed once, repeatable by the same install for 10 minutes,
/// purged when expired so the table never grows without bound.
@Suite struct DeferredTokenStoreTests {
    static func token(_ name: String, expiresAt: Int64) -> DeferredToken {
        DeferredToken(
            token: name, resolution: ["location": "/users/1"], platform: "android", clickedAt: 0,
            link: "https://links.example.com/users/1", expiresAt: expiresAt)
    }

    @Test func aHundredThousandExpiredTokensArePurged() throws {
        let store = try SQLiteStore(directory: TestServer.temporaryDirectory())
        defer { try? store.close() }
        // Written in one transaction here: through the API each token is its own durable write.
        try store.database.write { db in
            for index in 0..<100_000 {
                try db.execute(
                    sql: """
                        INSERT INTO deferred_token (token, resolution, platform, clicked_at, link, expires_at)
                        VALUES (?, '{}', 'ios', 0, 'x', ?)
                        """, arguments: ["t\(index)", index < 99_990 ? 1_000 : 5_000])
            }
        }
        try store.saveDeferredToken(Self.token("live", expiresAt: 10_000))
        #expect(try store.purgeDeferredTokens(before: 2_000) == 99_990)
        let left = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM deferred_token") }
        #expect(left == 11)
        #expect(try store.countDeferredTokens() == 11)
        #expect(try store.claimDeferredToken("live", installID: nil, now: 2_000, repeatWindow: 600_000) != nil)
    }

    @Test func aTokenIsClaimedOnceAndRepeatableByTheSameInstall() throws {
        let store = try SQLiteStore(directory: TestServer.temporaryDirectory())
        defer { try? store.close() }
        try store.saveDeferredToken(Self.token("a", expiresAt: 1_000_000))
        #expect(try store.claimDeferredToken("a", installID: "i1", now: 1_000, repeatWindow: 600_000)?.token == "a")
        #expect(try store.claimDeferredToken("a", installID: "i1", now: 600_999, repeatWindow: 600_000) != nil)
        #expect(try store.claimDeferredToken("a", installID: "i1", now: 601_001, repeatWindow: 600_000) == nil)
        #expect(try store.claimDeferredToken("a", installID: "i2", now: 2_000, repeatWindow: 600_000) == nil)
        #expect(try store.claimDeferredToken("a", installID: nil, now: 2_000, repeatWindow: 600_000) == nil)
        try store.saveDeferredToken(Self.token("b", expiresAt: 5_000))
        #expect(try store.claimDeferredToken("b", installID: nil, now: 5_000, repeatWindow: 600_000) == nil)
        #expect(try store.claimDeferredToken("nope", installID: nil, now: 0, repeatWindow: 600_000) == nil)
    }

    /// API.md §9: a repeat claim by the same install within 10 minutes gets the same answer, also when the token's
    /// own lifetime (`links.deferredTTL`) ended in between; the purge keeps the row for that long.
    @Test func aRepeatWithinTheWindowOutlivesTheTokensLifetime() throws {
        let store = try SQLiteStore(directory: TestServer.temporaryDirectory())
        defer { try? store.close() }
        try store.saveDeferredToken(Self.token("short", expiresAt: 5_000))
        #expect(try store.claimDeferredToken("short", installID: "i1", now: 1_000, repeatWindow: 600_000) != nil)
        #expect(try store.purgeDeferredTokens(before: 300_000) == 0)
        #expect(try store.claimDeferredToken("short", installID: "i1", now: 300_000, repeatWindow: 600_000) != nil)
        #expect(try store.claimDeferredToken("short", installID: "i2", now: 300_000, repeatWindow: 600_000) == nil)
        #expect(try store.claimDeferredToken("short", installID: "i1", now: 601_001, repeatWindow: 600_000) == nil)
        #expect(try store.purgeDeferredTokens(before: 601_001) == 1)
    }

    @Test func tokensAreLongRandomAndURLSafe() {
        let tokens = (0..<1000).map { _ in DeferredTokens.newToken() }
        #expect(Set(tokens).count == 1000)
        #expect(tokens.allSatisfy { DeferredTokens.isWellFormed($0) })
        #expect(tokens.allSatisfy { $0.utf8.count == 24 })  // 144 bits
        #expect(DeferredTokens.base64URL([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(DeferredTokens.base64URL([0x66, 0x6F]) == "Zm8")
    }
}
