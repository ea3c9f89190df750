import Synchronization

/// The list of everything a snapshot holds (`GET /v1/resources` without `loc` or `name`, `GET /v1/routes`), kept for
/// the snapshot it was written from.
///
/// A list is as large as the store (megabytes at 100k routes), the same for every client whatever else its query
/// holds, and asked for again and again by consoles and sync jobs. Kept, it is written once per snapshot rather than
/// once per request, and its bytes are one array: the daemon lends a large body to libmicrohttpd rather than copying
/// it (``Daemon/mhdResponse(sending:)``), so the clients that read it slowly hold one copy between them, not one each.
/// The first answer of a snapshot is kept at once (``KeptAnswers`` keeps a request from its second sighting, and
/// nothing over 4 KiB); until it is, each worker thread that asks writes its own, so at most `server.threads` copies
/// are written at once.
final class KeptList: Sendable {
    private let kept = Mutex<(serial: UInt64, response: Response)?>(nil)

    /// The list kept for the snapshot numbered `serial`, else the one `write` writes, kept unless a newer snapshot's
    /// is kept already.
    func response(serial: UInt64, write: () -> Response) -> Response {
        if let response = kept.withLock({ $0?.serial == serial ? $0?.response : nil }) { return response }
        let response = write()
        // The list it replaces is released here, after the lock, not under it.
        let replaced = kept.withLock { (kept) -> Response? in
            guard (kept?.serial ?? 0) <= serial else { return nil }
            defer { kept = (serial, response) }
            return kept?.response
        }
        _ = replaced
        return response
    }
}
