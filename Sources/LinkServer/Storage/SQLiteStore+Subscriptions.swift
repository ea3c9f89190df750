import GRDB
import LinkCore

/// A subscription as the embedded store keeps it (API.md §5: events stay queued until acknowledged, across
/// restarts). Its queue is not stored as such: it is the logged events from `heldFrom` on that reach its types.
struct KeptSubscription: Sendable, Equatable {
    struct KeptType: Sendable, Equatable {
        var pattern: String
        var shape: String
        /// Set when the type was removed: the last `seq` of it the subscription receives.
        var through: Int?
    }

    var id: String
    var ttl: Int64
    /// Wall-clock milliseconds when its idle time began (its last poll ended).
    var idleSince: Int64
    var cursor: Int
    var heldFrom: Int
    var missed: Int
    var types: [KeptType]

    /// What a sync compares and writes of it.
    var state: KeptSubscriptionState {
        KeptSubscriptionState(cursor: cursor, heldFrom: heldFrom, missed: missed, idleSince: idleSince)
    }
}

/// One event of the log, for the subscriptions of one of the types it matched (`rank` 0 the best): its bytes as its
/// subscribers received them.
struct KeptEvent: Sendable, Equatable {
    var seq: Int
    var rank: Int
    var shape: String
    var body: String
}

/// Changes of the journal committed together (``SQLiteStore/saveSubscriptionChanges(_:)``).
struct SubscriptionChanges: Sendable {
    /// Types removed: the subscriptions stored with them get them only through `through`. Applied first, so that a
    /// subscription of this batch opened after the removal (its pattern registered again) keeps its type.
    var retired: [SubscriptionJournal.Retirement] = []
    var opened: [KeptSubscription] = []
    var events: [KeptEvent] = []
    var states: [String: KeptSubscriptionState] = [:]
    var closed: [String] = []
    var cut: Int?
    /// The logged events below `below` that no subscription holds go; those of `keeping` stay (``Thinning``).
    var thin: Thinning?
    /// Slots changed, written with the events they are told as (`slotChanged`, in ``events``): both or neither.
    var slots: [(name: String, presentation: Presentation?)] = []

    var isEmpty: Bool {
        retired.isEmpty && opened.isEmpty && events.isEmpty && states.isEmpty && closed.isEmpty && cut == nil
            && thin == nil && slots.isEmpty
    }
}

/// The part of the event log kept whole is the last ``SubscriptionJournal/retained`` `seq`s; below that, only the
/// events some subscription still holds (`keeping`, in `seq` order) are kept.
struct Thinning: Sendable, Equatable {
    var below: Int
    var keeping: [Int]
}

/// A subscription's state as a sync writes it.
struct KeptSubscriptionState: Sendable, Equatable {
    var cursor: Int
    var heldFrom: Int
    var missed: Int
    var idleSince: Int64
}

extension SQLiteStore {
    static func registerSubscriptionMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("subscriptions-v1") { db in
            try db.create(table: "event_subscription") { t in
                t.primaryKey("id", .text)
                t.column("ttl_ms", .integer).notNull()
                t.column("idle_since", .integer).notNull()
                t.column("cursor", .integer).notNull()
                t.column("held_from", .integer).notNull()
                t.column("missed", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "event_subscription_type") { t in
                t.column("subscription", .text).notNull().references(
                    "event_subscription", column: "id", onDelete: .cascade)
                t.column("pattern", .text).notNull()
                t.column("shape", .text).notNull()
                t.column("through", .integer)
                t.primaryKey(["subscription", "shape"])
            }
            try db.create(index: "event_subscription_type_shape", on: "event_subscription_type", columns: ["shape"])
            try db.create(table: "event_log") { t in
                t.column("seq", .integer).notNull()
                t.column("rank", .integer).notNull()
                t.column("shape", .text).notNull()
                t.column("body", .text).notNull()
                t.primaryKey(["seq", "rank"])
            }
        }
    }

    /// Commits a batch of the journal's changes in one transaction, in this order: types removed, new subscriptions,
    /// new events of the log, changed subscription states, the removal of subscriptions gone (closed or expired), of
    /// the logged events below `cut` (no subscription holds them), and of those below `thin.below` that are not kept.
    func saveSubscriptionChanges(_ changes: SubscriptionChanges) throws {
        guard !changes.isEmpty else { return }
        try database.write { db in
            for retirement in changes.retired {
                try db.execute(
                    sql: "UPDATE event_subscription_type SET through = ? WHERE shape = ? AND through IS NULL",
                    arguments: [retirement.through, retirement.shape])
                if retirement.deletesType {
                    try db.execute(sql: "DELETE FROM event_type WHERE shape = ?", arguments: [retirement.shape])
                }
            }
            for subscription in changes.opened {
                try db.execute(
                    sql: """
                        INSERT INTO event_subscription (id, ttl_ms, idle_since, cursor, held_from, missed)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        subscription.id, subscription.ttl, subscription.idleSince, subscription.cursor,
                        subscription.heldFrom, subscription.missed,
                    ])
                for type in subscription.types {
                    try db.execute(
                        sql: """
                            INSERT INTO event_subscription_type (subscription, pattern, shape, through)
                            VALUES (?, ?, ?, ?)
                            """,
                        arguments: [subscription.id, type.pattern, type.shape, type.through])
                }
            }
            // Prepared once per connection (an emit's commit is this one statement, and a sync may update thousands).
            if !changes.events.isEmpty {
                let insert = try db.cachedStatement(
                    sql: "INSERT OR IGNORE INTO event_log (seq, rank, shape, body) VALUES (?, ?, ?, ?)")
                for event in changes.events {
                    try insert.execute(arguments: [event.seq, event.rank, event.shape, event.body])
                }
            }
            if !changes.states.isEmpty {
                let update = try db.cachedStatement(
                    sql: """
                        UPDATE event_subscription SET cursor = ?, held_from = ?, missed = ?, idle_since = ?
                        WHERE id = ?
                        """)
                for (id, state) in changes.states {
                    try update.execute(arguments: [state.cursor, state.heldFrom, state.missed, state.idleSince, id])
                }
            }
            for id in changes.closed {
                try db.execute(sql: "DELETE FROM event_subscription WHERE id = ?", arguments: [id])
            }
            for slot in changes.slots { try SQLiteStore.writeSlot(slot.name, slot.presentation, in: db) }
            if let cut = changes.cut {
                try db.execute(sql: "DELETE FROM event_log WHERE seq < ?", arguments: [cut])
                // A removed type's last event is behind every subscription: it is done with.
                try db.execute(sql: "DELETE FROM event_subscription_type WHERE through < ?", arguments: [cut])
            }
            if let thin = changes.thin {
                let kept = "[" + thin.keeping.map(String.init).joined(separator: ",") + "]"
                try db.execute(
                    sql: "DELETE FROM event_log WHERE seq < ? AND seq NOT IN (SELECT value FROM json_each(?))",
                    arguments: [thin.below, kept])
            }
        }
    }

    /// Every kept subscription, and the logged events any of them may still hold (from the lowest `held_from` on),
    /// in `seq` and rank order.
    func loadSubscriptions() throws -> (subscriptions: [KeptSubscription], events: [KeptEvent]) {
        try database.read { db in
            var types: [String: [KeptSubscription.KeptType]] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT subscription, pattern, shape, through FROM event_subscription_type ORDER BY rowid")
            {
                types[row["subscription"], default: []].append(
                    .init(pattern: row["pattern"], shape: row["shape"], through: row["through"]))
            }
            let subscriptions = try Row.fetchAll(
                db, sql: "SELECT id, ttl_ms, idle_since, cursor, held_from, missed FROM event_subscription"
            ).map { row in
                KeptSubscription(
                    id: row["id"], ttl: row["ttl_ms"], idleSince: row["idle_since"], cursor: row["cursor"],
                    heldFrom: row["held_from"], missed: row["missed"], types: types[row["id"]] ?? [])
            }
            guard let from = subscriptions.map(\.heldFrom).min() else { return ([], []) }
            let events = try Row.fetchAll(
                db, sql: "SELECT seq, rank, shape, body FROM event_log WHERE seq >= ? ORDER BY seq, rank",
                arguments: [from]
            ).map { row in KeptEvent(seq: row["seq"], rank: row["rank"], shape: row["shape"], body: row["body"]) }
            return (subscriptions, events)
        }
    }
}
