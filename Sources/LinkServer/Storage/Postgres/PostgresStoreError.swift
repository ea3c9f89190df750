import LinkCore
import PostgresNIO

/// What can go wrong with the shared store, as the service reports it. No text here ever holds the password.
enum PostgresStoreError: Error, CustomStringConvertible {
    /// No connection at start: the process exits with code 2.
    case unreachable(_ database: String, reason: String)
    /// A call did not answer within ``PostgresStore/timeout``.
    case timedOut
    /// The database answered something the store did not expect.
    case unexpected(String)

    var description: String {
        switch self {
        case .unreachable(let database, let reason): "PostgreSQL at \(database) is unreachable: \(reason)"
        case .timedOut: "PostgreSQL did not answer in time"
        case .unexpected(let what): "unexpected answer from PostgreSQL: \(what)"
        }
    }

    /// A short reason for a failed connection (the server's message, or the kind of failure).
    static func reason(_ error: any Error) -> String {
        if let transaction = error as? PostgresTransactionError,
            let inner = transaction.closureError ?? transaction.beginError ?? transaction.commitError
        {
            return reason(inner)
        }
        if let error = error as? PostgresStoreError { return error.description }
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            return error.serverInfo?[.sqlState].map { "\(message) (SQLSTATE \($0))" } ?? message
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// Maps a failure of a store call: conflicts and domain errors pass through; a lost connection or a timeout
    /// becomes `unavailable` (503, API.md §12); anything else stays an internal error, logged in full.
    static func translate(_ error: any Error) -> any Error {
        var error = error
        if let transaction = error as? PostgresTransactionError {
            error = transaction.closureError ?? transaction.beginError ?? transaction.commitError ?? error
        }
        switch error {
        case is StoreConflict, is LinkError:
            return error
        case PostgresStoreError.timedOut:
            return LinkError.storeUnreachable
        case let error as PSQLError where error.code == .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            if state == "23505" {
                return LinkError(.nameConflict, "The name is already bound to a different pattern")
            }
            // Connection exceptions (08), insufficient resources (53), operator intervention (57: shutting down,
            // starting up): the database is not there for now.
            if ["08", "53", "57"].contains(String(state.prefix(2))) {
                return LinkError.storeUnreachable
            }
            // A deadlock (40P01) or a serialization failure (40001): the database chose this transaction to undo
            // because of a concurrent one; the same write may succeed at once (PostgreSQL's manual, 13.6). Not the
            // rest of class 40: 40003 says the statement's outcome is unknown.
            if state == "40P01" || state == "40001" { return LinkError.rolledBack }
            return PostgresStoreError.unexpected(String(reflecting: error))
        case is PSQLError, is CancellationError:
            return LinkError.storeUnreachable
        // The pool's own errors (its module is not a product, so matched by name): shut down by a reconnect, or
        // no connection to lease.
        case _ where String(reflecting: type(of: error)).hasSuffix(".ConnectionPoolError"):
            return LinkError.storeUnreachable
        default:
            return error
        }
    }
}
