import GRDB
import LinkCore
import Testing

@testable import LinkServer

/// A write the embedded store cannot make for a reason of the machine (a full disk, a read-only or failing file
/// system) is 503 `unavailable`, saying why, not a 500: nothing is wrong with the request, nothing was changed, and
/// the same write succeeds once there is room. The disk is filled for real by SQLite's own size cap
/// (`PRAGMA max_page_count`), which fails a write that needs another page with `SQLITE_FULL`, as a full disk does.
@Suite struct StoreFailureTests {
    private static let large = String(repeating: "x", count: 64 * 1024)

    @Test func aWriteToAFullStoreIsUnavailableAndChangesNothing() throws {
        try withServer { (server) throws in
            let client = server.client()
            #expect(try client.post("/v1/resources", ["path": "/kept", "value": 1]).status == 201)
            let store = try #require(server.application.store as? SQLiteStore)
            try Self.capStore(store)

            let writes: [(String, JSONValue)] = [
                ("/v1/resources", ["path": "/big", "value": .string(Self.large)]),
                ("/v1/routes", ["path": "/big/:id", "name": "big", "destination": ["blob": .string(Self.large)]]),
            ]
            for (target, body) in writes {
                let refused = try client.post(target, body)
                #expect(refused.status == 503, "\(target)")
                // Every 503 `unavailable` says when to try again (RFC 9110 §10.2.3).
                #expect(refused.header("retry-after") == "1")
                let error = refused.json?["error"]
                #expect(error?["code"] == "unavailable")
                #expect(error?["message"] == "The store cannot write: the disk is full")
                #expect(error?["details"] == ["store": "sqlite", "reason": "the disk is full", "sqliteCode": 13])
            }
            // Nothing was changed: neither the resource nor the route is there, the earlier resource is.
            #expect(try client.get("/v1/resources?loc=/big").status == 404)
            #expect(try client.get("/v1/routes/big").status == 404)
            #expect(try client.get("/v1/resources?loc=/kept").json?["value"] == 1)
            #expect(try client.get("/readyz").status == 200)

            try Self.capStore(store, pages: 1_073_741_823)
            for (target, body) in writes { #expect(try client.post(target, body).status == 201, "\(target)") }
            #expect(try client.get("/v1/routes/big").status == 200)
        }
    }

    /// An emit's `seq` block is reserved in the store (API.md §5: `seq` continues across restarts), on the first
    /// emit after a start and every 1024th: a store that cannot write then fails the emit with 503, saying why, and
    /// delivers nothing (it was a 500 whose cause went unlogged). The disk is full for real, as above: the page that
    /// would take the reservation's row is filled first, so that the row needs a page the cap refuses.
    @Test func anEmitWhoseSequenceCannotBeReservedIsUnavailableAndDeliversNothing() throws {
        try withServer { (server) throws in
            let client = server.client()
            let subscribed = try client.post("/v1/events/subscriptions", ["events": [["path": "/seek/:p"]]])
            let id = try #require(subscribed.json?["id"]?.stringValue)
            let store = try #require(server.application.store as? SQLiteStore)
            try Self.fillThePageOf(key: Application.seqReservationKey, value: "1024", in: store)
            try Self.capStore(store)

            let refused = try client.post("/v1/events/emit", ["loc": "/seek/1"])
            #expect(refused.status == 503)
            #expect(refused.json?["error"]?["message"] == "The store cannot write: the disk is full")
            #expect(refused.json?["error"]?["details"]?["sqliteCode"] == 13)
            #expect(try client.get("/v1/events/subscriptions/\(id)?wait=0").json?["events"] == [])

            try Self.capStore(store, pages: 1_073_741_823)
            #expect(try client.post("/v1/events/emit", ["loc": "/seek/2"]).json?["delivered"] == 1)
            let events = try client.get("/v1/events/subscriptions/\(id)?wait=0").json?["events"]
            #expect(events?.arrayValue?.map { $0["location"] } == ["/seek/2"])
        }
    }

    /// An emit that reached a subscriber answers once its event is in the log (API.md §5: what a 200 acknowledged
    /// survives `kill -9`), from its suspended connection: a log that cannot take it answers 503, saying why, and the
    /// next emit, with room again, answers 200.
    @Test func anEmitWhoseEventCannotBeLoggedIsUnavailable() throws {
        try withServer { (server) throws in
            let client = server.client()
            let subscribed = try client.post("/v1/events/subscriptions", ["events": [["path": "/seek/:p"]]])
            #expect(subscribed.status == 201)
            // The first emit after the start reserves its `seq` block too, while the store has room.
            #expect(try client.post("/v1/events/emit", ["loc": "/seek/1"]).json?["delivered"] == 1)
            let store = try #require(server.application.store as? SQLiteStore)
            try Self.capStore(store)

            let refused = try client.post("/v1/events/emit", ["loc": "/seek/2", "extra": .string(Self.large)])
            #expect(refused.status == 503)
            #expect(refused.header("retry-after") == "1")
            #expect(refused.json?["error"]?["message"] == "The store cannot write: the disk is full")
            #expect(try client.get("/readyz").status == 200)

            try Self.capStore(store, pages: 1_073_741_823)
            let next = try client.post("/v1/events/emit", ["loc": "/seek/3"])
            #expect(next.status == 200)
            #expect(next.json?["delivered"] == 1)
        }
    }

    /// Which failures are the machine's: the primary codes, whatever the extended code says of them.
    @Test func theMachinesFailuresAreAFullDiskAReadOnlyDatabaseAndIOErrors() {
        let machine: [ResultCode] = [
            .SQLITE_FULL, .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_IOERR_WRITE, .SQLITE_IOERR_FSYNC,
        ]
        for code in machine {
            let error = SQLiteStore.machineFailure(DatabaseError(resultCode: code))
            #expect(error?.code == .unavailable, "\(code)")
            #expect(ErrorEnvelope.unexpected(DatabaseError(resultCode: code)).code == .unavailable, "\(code)")
        }
        let moved = SQLiteStore.machineFailure(DatabaseError(resultCode: .SQLITE_READONLY_DBMOVED))
        #expect(moved?.details == ["store": "sqlite", "reason": "the database is read-only", "sqliteCode": 1032])
        let failed = SQLiteStore.machineFailure(DatabaseError(resultCode: .SQLITE_IOERR_FSYNC))
        #expect(failed?.message == "The store failed: the file system reported an I/O error")
        for code in [ResultCode.SQLITE_CONSTRAINT, .SQLITE_ERROR, .SQLITE_CORRUPT, .SQLITE_BUSY] {
            #expect(SQLiteStore.machineFailure(DatabaseError(resultCode: code)) == nil, "\(code)")
            #expect(ErrorEnvelope.unexpected(DatabaseError(resultCode: code)).code == .internal, "\(code)")
        }
        struct Other: Error {}
        #expect(ErrorEnvelope.unexpected(Other()).code == .internal)
    }

    /// Adds rows to `meta` beside `key` until a row `key` = `value` (absent) no longer fits in the pages the database
    /// has: tried in a savepoint rolled back each time, so the row itself is never written.
    private static func fillThePageOf(key: String, value: String, in store: SQLiteStore) throws {
        try store.database.writeWithoutTransaction { db in
            for index in 0..<10_000 {
                let before = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                var grew = false
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
                    grew = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 > before
                    return .rollback
                }
                if grew { return }
                try db.execute(
                    sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: ["\(key)~\(index)", value])
            }
            throw HTTPClient.Failure(description: "meta's page never filled")
        }
    }

    /// Caps the database at `pages` pages, by default the pages it has now: a write that needs one more fails.
    private static func capStore(_ store: SQLiteStore, pages: Int? = nil) throws {
        try store.database.writeWithoutTransaction { db in
            let cap = try pages ?? Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(cap)")
        }
    }
}
