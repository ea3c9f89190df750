import LinkCore
import PostgresNIO

/// A subscription's state as one poll found it in the shared event log (API.md §5, §12).
struct SharedPollState: Sendable {
    /// The queued events the answer carries (at most the queue limit, oldest first): `seq`, the pattern shapes the
    /// emit matched (best first) and their events without `seq`, as stored.
    var events: [(seq: Int, shapes: [String], body: String)]
    var cursor: Int
    var missed: Int
    /// The subscription's pattern shapes.
    var shapes: [String]
    /// The shapes of its types removed since it subscribed, each with the last `seq` of it the subscription gets.
    var retired: [(shape: String, through: Int)] = []
    /// The last `seq` committed when the poll read the log: a waiting poll checks events after it.
    var latestSeq: Int
    /// The poll's generation: a waiting poll with a smaller one is released.
    var generation: Int
}

/// The shared event bus in PostgreSQL (API.md §12): subscriptions, the event log, `seq` in commit order.
extension PostgresStore {
    /// Whether event `e` is one of subscription `s`'s: it matched one of its types, or one of them removed since,
    /// no later than its removal.
    static let reaches = """
        (e.shapes && s.shapes OR EXISTS (
            SELECT 1 FROM unnest(s.retired, s.retired_through) r(shape, through)
            WHERE e.seq <= r.through AND r.shape = ANY(e.shapes)))
        """

    /// Opens a subscription at the current `seq`; `too_many_subscriptions` past `limit` live ones. `stored`: its types
    /// that are stored (all but the built-in ones), by shape and name, as this instance resolved the entries;
    /// ``StoreConflict`` when one of them was removed, or named otherwise, by another instance since.
    func createSubscription(
        id: String, shapes: [String], stored: [(shape: String, name: String?)], ttl: Int64, now: Int64, limit: Int
    ) throws -> Int {
        try transaction { connection, logger in
            // Openings one at a time, so that the count of live subscriptions and the insert below are one step (two
            // at once each found room for one). Taken first, holding nothing: an opening that waits for it holds no
            // lock an emit or a type write needs, and no one who holds another lock here waits for it.
            try await connection.query(
                "SELECT pg_advisory_xact_lock(\(PostgresSchema.subscriptionLimitLock))", logger: logger)
            // SHARE: a type's removal (or registration, or naming) commits wholly before or after the subscription,
            // which then never holds the shape of a type removed before it (removal is final for the subscriptions
            // it finds; one made a moment after on another instance would receive the pattern if registered again),
            // nor a name given elsewhere to another pattern since. Type writes are rare. The table before the
            // `events` row, in the order a removal takes them: never a cycle.
            try await connection.query("LOCK TABLE event_type IN SHARE MODE", logger: logger)
            if !stored.isEmpty {
                let storedShapes = stored.map(\.shape)
                let names = stored.map { $0.name ?? "" }
                let found =
                    try await connection.query(
                        """
                        SELECT count(DISTINCT t.shape) FROM event_type t
                        JOIN unnest(\(storedShapes)::text[], \(names)::text[]) AS r(shape, name)
                            ON t.shape = r.shape AND COALESCE(t.name, '') = r.name
                        """, logger: logger
                    ).collectColumn(Int.self).first ?? 0
                guard found == Set(storedShapes).count else { throw StoreConflict(table: .eventTypes) }
            }
            // FOR SHARE: an emit (FOR UPDATE on the same row) commits wholly before or after the subscription.
            guard
                let seq = try await connection.query(
                    "SELECT revision FROM change_revision WHERE name = 'events' FOR SHARE", logger: logger
                ).collectColumn(Int.self).first
            else { throw PostgresStoreError.unexpected("no events revision") }
            let live =
                try await connection.query(
                    "SELECT count(*) FROM event_subscription WHERE active_until + ttl_ms >= \(now)", logger: logger
                ).collectColumn(Int.self).first ?? 0
            guard live < limit else {
                throw LinkError(
                    .tooManySubscriptions, "The subscription limit is reached", details: ["limit": .int(limit)])
            }
            try await connection.query(
                """
                INSERT INTO event_subscription (id, shapes, acked, cursor, ttl_ms, active_until)
                VALUES (\(id), \(shapes)::text[], \(seq), \(seq), \(ttl), \(now))
                """, logger: logger)
            try await connection.bumpRevision(.subscriptions, logger: logger)
            return seq
        }
    }

    /// Closes a subscription; `false` when there was none, or only one past its `ttl` at `now` (removed all the same,
    /// as a poll would find it gone). A poll waiting on it anywhere is released.
    func deleteSubscription(id: String, now: Int64) throws -> Bool {
        try transaction { connection, logger in
            let deleted = try await connection.query(
                "DELETE FROM event_subscription WHERE id = \(id) RETURNING active_until + ttl_ms >= \(now)",
                logger: logger
            ).collectColumn(Bool.self)
            guard let live = deleted.first else { return false }
            try await connection.bumpRevision(.subscriptions, logger: logger)
            try await connection.notifyPoll(id, generation: Int.max, logger: logger)
            return live
        }
    }

    /// Acknowledges through `after`, reads the queue and marks the subscription active until the poll ends (now
    /// when it is answered at once, else `now + wait`); `nil` when it does not exist or expired. With `supersedes`,
    /// this poll releases any older waiting one. Without `changing`, nothing is written: the answer such a poll
    /// would get (`HEAD` of a poll).
    func pollSubscription(
        id: String, after: Int?, now: Int64, wait: Int64, queueLimit: Int, supersedes: Bool, changing: Bool = true
    ) throws -> SharedPollState? {
        try transaction { connection, logger in
            let rows = try await connection.query(
                """
                SELECT shapes, acked, cursor, dropped, dropped_through, ttl_ms, active_until, generation, retired,
                    retired_through
                FROM event_subscription WHERE id = \(id) \(unescaped: changing ? "FOR UPDATE" : "")
                """, logger: logger
            ).decode(([String], Int, Int, Int, Int, Int64, Int64, Int, [String], [Int]).self)
            var found: ([String], Int, Int, Int, Int, Int64, Int64, Int, [String], [Int])?
            for try await row in rows { found = row }
            guard let found else { return nil }
            let (shapes, _, _, _, droppedThrough, ttl, activeUntil, _, retired, retiredThrough) = found
            var (_, acked, cursor, dropped, _, _, _, generation, _, _) = found
            if activeUntil + ttl < now {
                guard changing else { return nil }
                try await connection.query("DELETE FROM event_subscription WHERE id = \(id)", logger: logger)
                try await connection.bumpRevision(.subscriptions, logger: logger)
                return nil
            }
            // Read before the log: every event up to it is committed (emits commit in `seq` order).
            let latest =
                try await connection.query(
                    "SELECT revision FROM change_revision WHERE name = 'events'", logger: logger
                ).collectColumn(Int.self).first ?? 0
            if let after, after > acked {
                // An `after` past every `seq` there is was never handed out (a cursor kept across a reset of the
                // database, say): it acknowledges what this subscription was last handed, not events to come.
                acked = after <= latest ? after : max(acked, cursor)
                if acked >= droppedThrough { dropped = 0 }
            }
            var events: [(seq: Int, shapes: [String], body: String)] = []
            var total = 0
            let queued = try await connection.query(
                """
                SELECT e.seq, e.shapes, e.body, count(*) OVER () FROM event_log e, event_subscription s
                WHERE s.id = \(id) AND e.seq > \(acked) AND e.seq <= \(latest) AND \(unescaped: PostgresStore.reaches)
                ORDER BY e.seq DESC LIMIT \(queueLimit)
                """, logger: logger
            ).decode((Int, [String], String, Int).self)
            for try await (seq, eventShapes, body, count) in queued {
                events.append((seq, eventShapes, body))
                total = count
            }
            events.reverse()
            // Everything acknowledged was handed out (or dropped): the cursor is at least there.
            cursor = max(cursor, acked)
            if let last = events.last { cursor = max(cursor, last.seq) }
            let missed = dropped + max(0, total - queueLimit)
            guard changing else {
                return SharedPollState(
                    events: events, cursor: cursor, missed: missed, shapes: shapes,
                    retired: Array(zip(retired, retiredThrough)), latestSeq: latest, generation: generation)
            }
            if supersedes {
                generation += 1
                try await connection.notifyPoll(id, generation: generation, logger: logger)
            }
            // The subscription's idle time starts when this poll ends (API.md §5): now when it is answered at once
            // (events or drops to tell, or no wait), else at its deadline (an emit that answers it sooner leaves
            // that, more lenient, never shorter). A poll that releases the waiting one sets it; another only
            // extends it.
            let until = !events.isEmpty || missed > 0 || wait <= 0 ? now : now + wait
            if supersedes {
                try await connection.query(
                    """
                    UPDATE event_subscription SET acked = \(acked), cursor = \(cursor), dropped = \(dropped),
                        active_until = \(until), generation = \(generation)
                    WHERE id = \(id)
                    """, logger: logger)
            } else {
                try await connection.query(
                    """
                    UPDATE event_subscription SET acked = \(acked), cursor = \(cursor), dropped = \(dropped),
                        active_until = GREATEST(active_until, \(until)), generation = \(generation)
                    WHERE id = \(id)
                    """, logger: logger)
            }
            return SharedPollState(
                events: events, cursor: cursor, missed: missed, shapes: shapes,
                retired: Array(zip(retired, retiredThrough)), latestSeq: latest, generation: generation)
        }
    }

    /// Stores `event` with the next `seq` and answers it with the number of live subscriptions it reaches; or, with
    /// `onlyIfHeard`, nothing at all (`nil`: no `seq` taken, no lock, no `NOTIFY`) when no live subscription has one
    /// of its shapes, checked in the same statement: what another instance subscribed a moment ago is seen, as its
    /// 201 came after its commit.
    ///
    /// One statement, so one round trip: the `UPDATE … RETURNING` of the `events` revision row takes the next `seq`
    /// and holds the row's lock until the commit, which serialises emits across instances (API.md §12's "lock that
    /// serialises emits, then a counter row"): `seq` order is commit order. The `NOTIFY` is part of the same
    /// transaction, so it is delivered only if the event commits.
    func appendEvent(_ event: StoredEvent, now: Int64, onlyIfHeard: Bool) throws -> (seq: Int, delivered: Int)? {
        // A click waits on it (`linkClick`): as briefly as on its other store calls.
        let rows = try run(
            timeout: onlyIfHeard ? PostgresStore.clickTimeout : PostgresStore.timeout, commits: !onlyIfHeard
        ) { connection, logger in
            try await connection.query(
                PostgresStore.appending(event, now: now, onlyIfHeard: onlyIfHeard), logger: logger
            )
            .collectRows(Int.self, Int.self)
        }
        return rows.first.map { (seq: $0.0, delivered: $0.1) }
    }

    /// The one statement that stores `event` with the next `seq` (unless, with `onlyIfHeard`, no live subscription
    /// has one of its shapes), notifies the instances, and answers the `seq` and the subscriptions it reaches; on
    /// its own (``appendEvent(_:now:onlyIfHeard:)``) or in another change's transaction.
    static func appending(_ event: StoredEvent, now: Int64, onlyIfHeard: Bool) -> PostgresQuery {
        let shapes = event.shapes
        let body = event.body
        return """
            WITH heard AS (
                SELECT NOT \(onlyIfHeard) OR EXISTS (
                    SELECT 1 FROM event_subscription
                    WHERE shapes && \(shapes)::text[] AND active_until + ttl_ms >= \(now)
                ) AS yes
            ), next AS (
                UPDATE change_revision SET revision = revision + 1
                WHERE name = 'events' AND (SELECT yes FROM heard) RETURNING revision
            ), stored AS (
                INSERT INTO event_log (seq, shapes, body)
                SELECT revision, \(shapes)::text[], \(body) FROM next RETURNING seq
            ), announced AS (
                SELECT pg_notify('linkserver_changes', 'events:' || seq) FROM stored
            )
            SELECT stored.seq, (
                SELECT count(*) FROM event_subscription
                WHERE shapes && \(shapes)::text[] AND active_until + ttl_ms >= \(now)
            )
            FROM stored, announced
            """
    }

    /// The queues of several subscriptions at once, up to `latest`, as polls that acknowledge nothing would see
    /// them (woken polls: one query for all). A subscription that no longer exists is absent.
    func queues(_ ids: [String], latest: Int, queueLimit: Int) throws -> [String: SharedPollState] {
        guard !ids.isEmpty else { return [:] }
        typealias Row = (String, [String], Int, Int, [String], [Int], Int?, [String]?, String?, Int?)
        let rows: [Row] = try run { connection, logger in
            var rows: [Row] = []
            let sequence = try await connection.query(
                """
                SELECT s.id, s.shapes, s.cursor, s.dropped, s.retired, s.retired_through, q.seq, q.shapes, q.body,
                    q.total
                FROM event_subscription s
                LEFT JOIN LATERAL (
                    SELECT e.seq, e.shapes, e.body, count(*) OVER () AS total FROM event_log e
                    WHERE e.seq > s.acked AND e.seq <= \(latest) AND \(unescaped: PostgresStore.reaches)
                    ORDER BY e.seq DESC LIMIT \(queueLimit)
                ) q ON true
                WHERE s.id = ANY(\(ids)::text[])
                """, logger: logger)
            for try await row in sequence.decode(Row.self) { rows.append(row) }
            return rows
        }
        var states: [String: SharedPollState] = [:]
        var totals: [String: Int] = [:]
        for (id, shapes, cursor, dropped, retired, retiredThrough, seq, eventShapes, body, total) in rows {
            var state =
                states[id]
                ?? SharedPollState(
                    events: [], cursor: cursor, missed: dropped, shapes: shapes,
                    retired: Array(zip(retired, retiredThrough)), latestSeq: latest, generation: 0)
            if let seq, let eventShapes, let body {
                state.events.append((seq, eventShapes, body))
                state.cursor = max(state.cursor, seq)
                totals[id] = total ?? 0
            }
            states[id] = state
        }
        for (id, total) in totals {
            states[id]?.events.sort { $0.seq < $1.seq }
            states[id]?.missed += max(0, total - queueLimit)
        }
        return states
    }

    /// The `seq` and shapes of the events after `after` up to `through`, oldest first (at most `limit`).
    func eventShapes(after: Int, through: Int, limit: Int) throws -> [(seq: Int, shapes: [String])] {
        try run { connection, logger in
            try await connection.query(
                """
                SELECT seq, shapes FROM event_log WHERE seq > \(after) AND seq <= \(through)
                ORDER BY seq LIMIT \(limit)
                """, logger: logger
            ).collectRows(Int.self, [String].self).map { (seq: $0.0, shapes: $0.1) }
        }
    }

    /// Live subscriptions.
    func subscriptionCount(now: Int64) throws -> Int {
        try run { connection, logger in
            try await connection.query(
                "SELECT count(*) FROM event_subscription WHERE active_until + ttl_ms >= \(now)", logger: logger
            ).collectColumn(Int.self).first ?? 0
        }
    }

    /// The generation of each of `ids` that still exists (a missing one was closed or expired).
    func subscriptionGenerations(_ ids: [String]) throws -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        let rows = try run { connection, logger in
            try await connection.query(
                "SELECT id, generation FROM event_subscription WHERE id = ANY(\(ids)::text[])", logger: logger
            ).collectRows(String.self, Int.self)
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Removes expired subscriptions, the events that every subscription acknowledged, and those more than
    /// `retain` behind the last `seq` that no subscription's queue holds (its newest `queueLimit` unacknowledged
    /// events): only an overflow drops an event (API.md §5), and the events older than a queue's are counted as
    /// dropped (missed) by it as they go. Serialised across instances, so a removed event is counted once.
    func sweepEvents(now: Int64, retain: Int, queueLimit: Int) throws {
        try transaction(commitsLate: true) { connection, logger in
            // No statement limit here (connections start with one, PostgresStore.statementTimeout): a sweep that
            // takes long must still finish, or the log it would shorten only grows. Its caller does not answer
            // anyone.
            try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.sweepLock))", logger: logger)
            let expired = try await connection.query(
                "DELETE FROM event_subscription WHERE active_until + ttl_ms < \(now) RETURNING id", logger: logger
            ).collectColumn(String.self)
            if !expired.isEmpty { try await connection.bumpRevision(.subscriptions, logger: logger) }
            let latest =
                try await connection.query(
                    "SELECT revision FROM change_revision WHERE name = 'events'", logger: logger
                ).collectColumn(Int.self).first ?? 0
            let oldestAcked =
                try await connection.query(
                    "SELECT min(acked) FROM event_subscription", logger: logger
                ).collectColumn(Int?.self).first ?? nil
            let cut = max(oldestAcked ?? latest, latest - retain)
            // The subscriptions behind the cut, locked until the commit: a poll acknowledging meanwhile waits, so the
            // overflow below is counted against the `acked` it is counted from (the statement below reads the rows
            // as committed once locked).
            try await connection.query(
                "SELECT id FROM event_subscription WHERE acked < \(cut) ORDER BY id FOR UPDATE", logger: logger)
            // `floors`: where the queue of each subscription behind the cut starts (its `queueLimit`-th newest
            // unacknowledged event; NULL when it holds none). Every event at or below the cut that no queue holds is
            // removed; one a subscription had not acknowledged was older than its queue (its overflow) and is
            // counted in its `dropped` as it goes, once. (The statements of a WITH run once each, on one snapshot.)
            try await connection.query(
                """
                WITH floors AS MATERIALIZED (
                    SELECT s.id, s.acked, s.shapes, s.retired, s.retired_through, (
                        SELECT min(q.seq) FROM (
                            SELECT e.seq FROM event_log e
                            WHERE e.seq > s.acked AND \(unescaped: PostgresStore.reaches)
                            ORDER BY e.seq DESC LIMIT \(queueLimit)) q) AS floor
                    FROM event_subscription s WHERE s.acked < \(cut)),
                removed AS (
                    DELETE FROM event_log e WHERE e.seq <= \(cut) AND NOT EXISTS (
                        SELECT 1 FROM floors s
                        WHERE e.seq >= s.floor AND e.seq > s.acked AND \(unescaped: PostgresStore.reaches))
                    RETURNING e.seq, e.shapes),
                overflow AS (
                    SELECT s.id, count(*) AS n, max(e.seq) AS through FROM floors s
                    JOIN removed e ON e.seq > s.acked
                    WHERE \(unescaped: PostgresStore.reaches)
                    GROUP BY s.id)
                UPDATE event_subscription t SET dropped = t.dropped + o.n,
                    dropped_through = GREATEST(t.dropped_through, o.through)
                FROM overflow o WHERE t.id = o.id
                """, logger: logger)
            // Retired shapes whose last event the subscription acknowledged (or counted as dropped) are done with.
            try await connection.query(
                """
                UPDATE event_subscription SET retired = '{}', retired_through = '{}'
                WHERE cardinality(retired) > 0 AND GREATEST(acked, dropped_through) >= (
                    SELECT max(t) FROM unnest(retired_through) t)
                """, logger: logger)
            return ()
        }
    }
}

extension PostgresConnection {
    /// Announces a poll on subscription `id` (in the writing transaction): waiting polls with an older
    /// generation, on any instance, answer empty.
    func notifyPoll(_ id: String, generation: Int, logger: Logger) async throws {
        let payload = "poll:" + id + ":" + String(generation)
        try await query("SELECT pg_notify('linkserver_changes', \(payload))", logger: logger)
    }
}
