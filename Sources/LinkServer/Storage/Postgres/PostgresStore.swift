import LinkCore
import Logging
import NIOSSL
import PostgresNIO
import Synchronization

/// The shared ``Store`` (API.md §12): one PostgreSQL database that several LinkServer instances use at once.
///
/// Every write is one transaction committed before the method returns (so before the 2xx). Writes to a shared
/// table also raise that table's row in `change_revision` and send `NOTIFY linkserver_changes` in the same
/// transaction; other instances poll the revisions (``StoreFollower``) and re-read what changed.
///
/// PostgresNIO is async; the ``Store`` protocol is synchronous. ``AsyncBridge`` runs each call as a task and parks
/// the calling thread until the answer (one round trip, as an SQLite commit parks it for an fsync), bounded by
/// ``timeout``. A lost connection or a timeout is `unavailable` (503); the connection pool reconnects by itself.
final class PostgresStore: Store {
    let location: PostgresLocation
    let logger: Logger
    /// The connection pool and the task running it; replaced by ``reconnect()`` after an outage.
    private let pool: Mutex<(client: PostgresClient, runner: Task<Void, Never>)>
    private let clientConfiguration: PostgresClient.Configuration
    /// The pool in use.
    var client: PostgresClient { pool.withLock { $0.client } }
    /// The longest a caller waits for one call.
    static let timeout = Duration.seconds(10)
    /// The longest a click waits for its `maxClicks` count or its token (then it is answered as if the store were
    /// down, API.md §12).
    static let clickTimeout = Duration.seconds(2)
    /// How long the start-up check waits for a connection.
    static let connectTimeout = Duration.seconds(5)
    /// The database's own limit on one statement, below ``timeout``: a write that waits too long (a row lock held
    /// elsewhere) is rolled back by the database, and answered `unavailable` within the call's time. It also bounds
    /// how long a caller waits for a commit begun just before its time was up (``commitLimit``). So a 503
    /// `unavailable` means the change was not made, and a retry makes it once (before, a statement went on after the
    /// 503 and committed: a retried emit was two events, a retried conditional write a 412).
    static let statementTimeout = Duration.seconds(9)
    /// How long a caller whose time is up waits for a commit already begun: the statement limit, and a second for
    /// its answer to arrive. Past it the database or the network stalled, and the outcome is unknown.
    static let commitLimit = statementTimeout + .seconds(1)
    /// Set on every connection as it starts.
    static let startupParameters = [("statement_timeout", String(statementTimeout.milliseconds))]

    /// Connects, checks the database answers, and applies pending migrations.
    ///
    /// - Throws: ``PostgresStoreError/unreachable(_:reason:)`` when no connection can be made (the process exits
    ///   with code 2); its text names the database without the password.
    init(location: PostgresLocation, logger: Logger) throws {
        self.location = location
        self.logger = logger
        try PostgresStore.checkReachable(location, logger: logger)
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: PostgresStore.clientTLS(location.tls))
        configuration.options.connectTimeout = PostgresStore.connectTimeout
        configuration.options.minimumConnections = 1
        configuration.options.additionalStartupParameters = PostgresStore.startupParameters
        // The pool's own messages only from errors up: its warning that a lease came a moment before `run()` began
        // is noise here, and a lost connection is reported by ``StoreFollower``.
        clientConfiguration = configuration
        pool = Mutex(PostgresStore.startPool(configuration, logger: logger))
        do {
            try migrate()
        } catch {
            pool.withLock { $0.runner.cancel() }
            throw error
        }
    }

    private static func startPool(
        _ configuration: PostgresClient.Configuration, logger: Logger
    ) -> (client: PostgresClient, runner: Task<Void, Never>) {
        var background = logger
        background.logLevel = .error
        let client = PostgresClient(configuration: configuration, backgroundLogger: background)
        let runner = Task(executorPreference: AsyncBridge.executor) { await client.run() }
        return (client, runner)
    }

    /// Replaces the connection pool with a fresh one, which connects at once. PostgresNIO's pool backs off up to a
    /// minute between tries; the follower renews it every few seconds while the database is unreachable, so the
    /// instance reconnects within 5 s of the database coming back (API.md §12).
    func reconnect() {
        let fresh = PostgresStore.startPool(clientConfiguration, logger: logger)
        let old = pool.withLock { pool in
            defer { pool = fresh }
            return pool.runner
        }
        old.cancel()
    }

    private static func clientTLS(_ mode: PostgresLocation.TLSMode) -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }

    /// Opens and closes one connection, so an unreachable database stops the start with one clear message.
    private static func checkReachable(_ location: PostgresLocation, logger: Logger) throws {
        do {
            let configuration = try connectionConfiguration(location)
            try AsyncBridge.wait(timeout: connectTimeout + .seconds(1)) { [configuration] in
                let connection = try await PostgresConnection.connect(
                    configuration: configuration, id: 0, logger: logger)
                try await connection.query("SELECT 1", logger: logger)
                try await connection.close()
            }
        } catch {
            throw PostgresStoreError.unreachable(location.description, reason: PostgresStoreError.reason(error))
        }
    }

    /// The settings of one connection outside the pool (the start-up check, the listening connection).
    static func connectionConfiguration(_ location: PostgresLocation) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch location.tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
        configuration.options.connectTimeout = .seconds(Int64(connectTimeout.components.seconds))
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    var isShared: Bool { true }

    /// Runs `work` on a pooled connection, translating failures (see ``PostgresStoreError/translate(_:)``).
    ///
    /// With `commits` (a write a client waits on), the statement is sent only while the caller still waits, and
    /// once sent the caller waits for its outcome (``AsyncBridge/Commitment``): a write answered `unavailable` was
    /// not made, even one that waited for a connection past `timeout`. Reads, and the writes of a click (which must
    /// be answered within ``clickTimeout`` whatever the database does: its count or token may then be stored after
    /// the answer), end at `timeout`, so that a silent network holds no one past it (the follower's reads tell an
    /// outage within seconds).
    ///
    /// While the follower knows the store is out of reach (``failFast(while:)``) a call is `unavailable` at
    /// once; only a `probe` (the follower's own read) is tried.
    func run<Value: Sendable>(
        timeout: Duration = PostgresStore.timeout, commits: Bool = false, probe: Bool = false,
        _ work: @escaping @Sendable (PostgresConnection, Logger) async throws -> Value
    ) throws -> Value {
        try call(timeout: timeout, probe: probe) { client, logger, commitment in
            try await client.withConnection { connection in
                if commits { try commitment.begin() }
                return try await work(connection, logger)
            }
        }
    }

    /// Runs `work` with the pool and the call's ``AsyncBridge/Commitment``, translating failures.
    private func call<Value: Sendable>(
        timeout: Duration, probe: Bool = false,
        _ work: @escaping @Sendable (PostgresClient, Logger, AsyncBridge.Commitment) async throws -> Value
    ) throws -> Value {
        if !probe, knownUnreachable.withLock({ $0 })() { throw LinkError.storeUnreachable }
        do {
            return try AsyncBridge.wait(timeout: timeout, commitLimit: PostgresStore.commitLimit) {
                [client, logger] commitment in
                try await work(client, logger, commitment)
            }
        } catch {
            let translated = PostgresStoreError.translate(error)
            if let unavailable = translated as? LinkError, unavailable == .storeUnreachable {
                lastCause.withLock { $0 = PostgresStoreError.reason(error) }
            }
            throw translated
        }
    }

    /// The reason of the last call found out of reach.
    private let lastCause = Mutex<String?>(nil)

    /// Whether the follower finds the store out of reach; never before it starts.
    private let knownUnreachable = Mutex<@Sendable () -> Bool>({ false })

    /// While the follower finds the database out of reach, calls are `unavailable` at once: each would otherwise
    /// wait for a connection from a pool that is backing off (1–4 s, measured), holding its caller's thread, and a
    /// poll would outlast its `wait`. The follower's poll goes on trying; once it gets through, calls do too.
    func failFast(while knownUnreachable: @escaping @Sendable () -> Bool) {
        self.knownUnreachable.withLock { $0 = knownUnreachable }
    }

    /// The last call's reason, and what a new connection meets: a call that found the database gone usually only
    /// timed out waiting for the pool, whose own connection errors are not handed out ("Connection refused" is).
    func diagnoseUnreachable() -> String? {
        let last = lastCause.withLock { $0 } ?? "unknown"
        do {
            try PostgresStore.checkReachable(location, logger: logger)
            return "\(last); a new connection succeeds"
        } catch PostgresStoreError.unreachable(_, let reason) {
            return "\(last); a new connection: \(reason)"
        } catch {
            return "\(last); a new connection: \(error)"
        }
    }

    /// Runs `work` in one transaction on one pooled connection: committed when it returns, rolled back when it
    /// throws, or when the caller has given up by then (a write answered `unavailable` is not made). With
    /// `commitsLate`, work nobody waits for (a sweep) commits whenever it is done.
    func transaction<Value: Sendable>(
        timeout: Duration = PostgresStore.timeout, commitsLate: Bool = false,
        _ work: @escaping @Sendable (PostgresConnection, Logger) async throws -> Value
    ) throws -> Value {
        try call(timeout: timeout) { client, logger, commitment in
            try await client.withTransaction(logger: logger) { connection in
                let value = try await work(connection, logger)
                if !commitsLate { try commitment.begin() }
                return value
            }
        }
    }

    func loadRouteTrees() throws -> [JSONValue] {
        try run { connection, logger in
            try await connection.query("SELECT definition FROM route_tree ORDER BY position", logger: logger)
                .collectColumn(String.self)
        }.map { try JSONParser.parse($0, maxDepth: JSONParser.storedMaxDepth) }
    }

    func replaceRouteTrees(_ trees: [JSONValue]) throws {
        _ = try replaceRouteTrees(trees, expected: nil)
    }

    func replaceRouteTrees(_ trees: [JSONValue], ifRevision revision: Int) throws -> Int {
        try replaceRouteTrees(trees, expected: revision)
    }

    private func replaceRouteTrees(_ trees: [JSONValue], expected: Int?) throws -> Int {
        let positions = Array(0..<trees.count)
        let definitions = trees.map { $0.encodedString() }
        return try transaction { connection, logger in
            let current = try await connection.lockRevision(.routes, logger: logger)
            if let expected, current != expected { throw StoreConflict(table: .routes) }
            try await connection.query("DELETE FROM route_tree", logger: logger)
            try await connection.query(
                """
                INSERT INTO route_tree (position, definition)
                SELECT * FROM unnest(\(positions)::bigint[], \(definitions)::text[])
                """, logger: logger)
            return try await connection.raiseRevision(.routes, to: current + 1, logger: logger)
        }
    }

    func revisions() throws -> [SharedTable: Int] {
        try revisions(probe: false)
    }

    func probeRevisions() throws -> [SharedTable: Int] {
        try revisions(probe: true)
    }

    private func revisions(probe: Bool) throws -> [SharedTable: Int] {
        // A short bound: the follower calls this every 250 ms and reports an unreachable store within seconds.
        let rows = try run(timeout: .seconds(2), probe: probe) { connection, logger in
            try await connection.query("SELECT name, revision FROM change_revision", logger: logger)
                .collectRows(String.self, Int.self)
        }
        var revisions: [SharedTable: Int] = [:]
        for (name, revision) in rows {
            if let table = SharedTable(rawValue: name) { revisions[table] = revision }
        }
        return revisions
    }

    func meta(_ key: String) throws -> String? {
        try run { connection, logger in
            try await connection.query("SELECT value FROM meta WHERE key = \(key)", logger: logger)
                .collectColumn(String.self).first
        }
    }

    func setMeta(_ key: String, _ value: String) throws {
        try run(commits: true) { connection, logger in
            try await connection.query(
                "INSERT INTO meta (key, value) VALUES (\(key), \(value)) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                logger: logger)
            return ()
        }
    }

    /// Under `pg_advisory_xact_lock`, so every instance's reservations of event `seq` blocks are serialised
    /// (API.md §12's counter row, taken a block at a time while events are kept per instance).
    func reserveBlock(_ key: String, after: Int, count: Int) throws -> Int {
        let first = String(after + count)
        let value = try transaction { connection, logger in
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.sequenceLock))", logger: logger)
            return try await connection.query(
                """
                INSERT INTO meta (key, value) VALUES (\(key), \(first)) ON CONFLICT (key)
                DO UPDATE SET value = (GREATEST(meta.value::bigint, \(after)) + \(count))::text
                RETURNING value
                """, logger: logger
            ).collectColumn(String.self).first
        }
        guard let value, let limit = Int(value) else { throw PostgresStoreError.unexpected("no counter value") }
        return limit
    }

    func close() throws {
        let runner = pool.withLock { $0.runner }
        runner.cancel()
        _ = try? AsyncBridge.wait(timeout: .seconds(5)) { await runner.value }
    }
}
