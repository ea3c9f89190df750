import Glibc
import LinkCore
import Synchronization

/// Answers already worked out, by the request's bytes, for the snapshot of live state they were worked out from:
/// `/v1/resolve`'s (a route snapshot), `GET /v1/resources`' (a resource snapshot) and a click on the links listener
/// (a route snapshot; ``LinkEngine/decideClick(_:key:counted:now:facts:)``).
///
/// Those answers are a function of the request (the query of a `GET`, the body of a `POST`, a click's target and
/// the headers it reads) and of the snapshot alone: no clock, no randomness takes part. A link in a campaign is
/// resolved by every app that opens it, and a flag read by every app that starts, with the same answer each time;
/// the second time, the answer is these bytes, and parsing, matching, the rules and the writer are skipped. What
/// is kept is a ``Value``: a response ready to send (``KeptResponse``), or a click's facts and decision.
///
/// - **Exact**: an answer is kept with the serial of the snapshot it came from, and a lookup from any other snapshot
///   misses; a newer snapshot (a write, a reload, another instance's write) empties the cache. A key is the
///   request's bytes, compared in full (their hash only picks the set).
/// - **Bounded**: ``sets`` sets of two answers each; a new answer takes the place of the one of its set used less
///   recently. An answer whose request and response together exceed ``largestEntry`` bytes is not kept, so the
///   cache never holds more than `2 × sets × largestEntry` bytes (16 MiB by default; answers are usually under
///   1 KiB).
/// - **Kept when asked twice**: a request is kept the second time it is worked out (its hash is noted the first
///   time, in a table of `2 × sets` hashes). A request seen once, such as a link that one person opens, costs a
///   hash and a note, not an allocation, and a stream of them does not push out the answers asked for again.
/// - Errors are kept too, as their envelopes (`no_match` for a link that matches no route is as repeatable as a
///   match).
final class KeptAnswers<Value: Sendable>: Sendable {
    typealias Kind = KeptKey.Kind

    /// A request's answer kept, and what it is kept by. A class: read out of the lock as one reference.
    fileprivate final class Answer: Sendable {
        let value: Value
        fileprivate let kind: Kind
        fileprivate let hash: UInt64
        fileprivate let key: [UInt8]

        fileprivate init(_ value: Value, kind: Kind, hash: UInt64, key: [UInt8]) {
            self.value = value
            self.kind = kind
            self.hash = hash
            self.key = key
        }
    }

    fileprivate struct Slots {
        var serial: UInt64 = 0
        /// Set `s` is `answers[2s]` and `answers[2s + 1]`.
        var answers: [Answer?]
        /// For each set, the way (0 or 1) used last.
        var lastUsed: [UInt8]
        /// The hashes of requests worked out once, each at its own place (picked by other bits than the set).
        var seen: [UInt64]
    }

    /// The number of sets (a power of two).
    let sets: Int
    /// The largest request and answer kept, together, in bytes.
    let largestEntry: Int
    private let slots: Mutex<Slots>
    /// The seed of ``hash(_:_:)``, drawn per process so that no one can choose requests that share a set.
    private let seed = UInt64.random(in: .min ... .max)

    init(sets: Int = 2_048, largestEntry: Int = 4 << 10) {
        precondition(sets > 0 && sets & (sets - 1) == 0, "the number of sets is a power of two")
        self.sets = sets
        self.largestEntry = largestEntry
        slots = Mutex(
            Slots(
                answers: Array(repeating: nil, count: 2 * sets), lastUsed: Array(repeating: 0, count: sets),
                seen: Array(repeating: 0, count: 2 * sets)))
    }

    /// The answer kept for `key` from the snapshot numbered `serial`, else the one `work` works out with its size
    /// in bytes, kept for the next time if `key` was worked out before and the size is given (`nil`: an answer
    /// that must be worked out every time); `kept` says which.
    func answer<Failure: Error>(
        _ kind: Kind, key: UnsafeRawBufferPointer, serial: UInt64,
        work: () throws(Failure) -> (value: Value, size: Int?)
    ) throws(Failure) -> (value: Value, kept: Bool) {
        let hash = hash(kind, key)
        let set = Int(truncatingIfNeeded: hash) & (sets - 1)
        let seenAt = Int(truncatingIfNeeded: hash >> 32) & (2 * sets - 1)
        // The third value, the answers of an older snapshot, is released as the call returns: after the lock, not
        // under it (up to 4,096 objects freed).
        let (kept, seenBefore, _) = slots.withLock { (slots) -> (Answer?, Bool, [Answer?]) in
            var dropped: [Answer?] = []
            if slots.serial != serial {
                // Answers from an older snapshot are never asked for again; from a newer one, wait for it.
                guard serial > slots.serial else { return (nil, false, []) }
                dropped = slots.empty(serial: serial)
            }
            for way in 0..<2 {
                if let answer = slots.answers[2 * set + way], answer.matches(kind, hash, key) {
                    slots.lastUsed[set] = UInt8(way)
                    return (answer, true, dropped)
                }
            }
            if slots.seen[seenAt] == hash { return (nil, true, dropped) }
            slots.seen[seenAt] = hash
            return (nil, false, dropped)
        }
        if let kept { return (kept.value, true) }
        let (value, size) = try work()
        // Only an answer kept is wrapped (an `Answer` of a generic type looks up its metadata when made).
        guard seenBefore, let size, key.count + size <= largestEntry else { return (value, false) }
        let answer = Answer(value, kind: kind, hash: hash, key: Array(key))
        slots.withLock { slots in
            guard slots.serial == serial else { return }
            // The way that holds this request already (another thread worked it out too), an empty one, or the one
            // not used last.
            let way: UInt8 =
                if let same = (0..<2).first(where: { slots.answers[2 * set + $0]?.matches(kind, hash, key) == true }) {
                    UInt8(same)
                } else if slots.answers[2 * set] == nil {
                    0
                } else if slots.answers[2 * set + 1] == nil {
                    1
                } else {
                    1 - slots.lastUsed[set]
                }
            slots.answers[2 * set + Int(way)] = answer
            slots.lastUsed[set] = way
        }
        return (value, false)
    }

    /// A key's set: eight bytes at a time, each word mixed by a multiplication and a shift (`Hasher`'s SipHash,
    /// then a dictionary's own hashing, took five times as long on a 50-byte query). Keys that share a set only
    /// take turns in it, so a weaker hash would cost hits, never time; the seed keeps anyone from choosing them.
    private func hash(_ kind: Kind, _ key: UnsafeRawBufferPointer) -> UInt64 {
        func mix(_ word: UInt64) -> UInt64 {
            let product = word &* 0x9E37_79B9_7F4A_7C15
            return product ^ (product >> 29)
        }
        var hash = mix(seed ^ UInt64(kind.rawValue) << 56 ^ UInt64(key.count))
        var offset = 0
        while offset + 8 <= key.count {
            hash = mix(hash ^ key.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < key.count {
            // The last eight bytes (overlapping the words before), or the few there are.
            var tail: UInt64 = 0
            if key.count >= 8 {
                tail = key.loadUnaligned(fromByteOffset: key.count - 8, as: UInt64.self)
            } else {
                for index in 0..<key.count { tail |= UInt64(key[index]) << (8 * UInt64(index)) }
            }
            hash = mix(hash ^ tail)
        }
        // The finalizer of SplitMix64: every bit of the result depends on every bit before (a multiplication
        // alone leaves a product's low bits to the word's low bytes, and the set is picked by the low bits).
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }

    /// The number of answers kept.
    var count: Int { slots.withLock { $0.answers.reduce(0) { $0 + ($1 == nil ? 0 : 1) } } }
}

/// A response kept ready to send, and its outcome for a metric (`/v1/resolve`'s `resolved`, `redirected` or error
/// code; `nil` when there is none).
struct KeptResponse: Sendable {
    let response: Response
    let outcome: String?
}

/// Responses kept ready to send (`/v1/resolve`, `GET /v1/resources`).
typealias KeptResponses = KeptAnswers<KeptResponse>

extension KeptAnswers where Value == KeptResponse {
    /// The response kept for `key` from the snapshot numbered `serial`, else the one `work` works out (with its
    /// outcome), kept for the next time if `key` was worked out before.
    func answer(
        _ kind: Kind, key: UnsafeRawBufferPointer, serial: UInt64, work: () -> (response: Response, outcome: String?)
    ) -> (value: KeptResponse, kept: Bool) {
        answer(kind, key: key, serial: serial) { () -> (value: KeptResponse, size: Int?) in
            let (response, outcome) = work()
            return (KeptResponse(response: response, outcome: outcome), response.keptSize)
        }
    }
}

/// The bytes answers are kept by (``KeptAnswers``).
enum KeptKey {
    /// Which request a key's bytes are: a `GET`'s query, a `POST`'s body, or a click's (``Click``).
    enum Kind: UInt8, Sendable {
        case query = 1
        case body = 2
        case click = 3
    }

    /// A request's raw query (empty without one) lent to `body` as bytes: in place for a part of a native string
    /// (cheaper than lending the whole string's bytes and cutting them), else copied.
    static func withBytes<Result>(
        of query: Substring?, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        let utf8 = (query ?? "").utf8
        return try utf8.withContiguousStorageIfAvailable { try body(UnsafeRawBufferPointer($0)) }
            ?? Array(utf8).withUnsafeBytes(body)
    }

    /// A click's bytes on the links listener: all its decision reads of the request when it draws no token (API.md
    /// §7; a redirect rule's `context.click` included), its path and raw query, `Host`, `User-Agent`, `Referer` and
    /// `Accept-Language`, each preceded by its length (a missing header by `0xFFFF_FFFF`), so that two different
    /// requests never give the same bytes. Read out of the request, not yet written (``withBytes(_:)``).
    struct Click {
        let path: String
        let query: Substring?
        let host, agent, referer, language: String?

        init(_ request: Request) {
            path = request.path
            query = request.rawQuery
            (host, agent) = (request.headers[.host], request.headers[.userAgent])
            (referer, language) = (request.headers[.referer], request.headers[.acceptLanguage])
        }

        /// The key's size in bytes.
        var count: Int {
            24 + path.utf8.count + (query?.utf8.count ?? 0) + (host?.utf8.count ?? 0) + (agent?.utf8.count ?? 0)
                + (referer?.utf8.count ?? 0) + (language?.utf8.count ?? 0)
        }

        /// The key written into a temporary buffer (on the stack for any usual request: a new array was an
        /// allocation per click, ~500 instructions) and lent to `body`.
        func withBytes<Result, Failure: Error>(
            _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            let count = count
            return try withUnsafeTemporaryAllocation(byteCount: count, alignment: 8) {
                (buffer) throws(Failure) -> Result in
                write(into: buffer.baseAddress!)
                return try body(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count))
            }
        }

        /// The key as an array.
        var bytes: [UInt8] { withBytes { Array($0) } }

        /// Writes the key's ``count`` bytes at `start`, each part copied in at once.
        private func write(into start: UnsafeMutableRawPointer) {
            var writer = KeyWriter(at: start)
            writer.write(path)
            writer.write(query)
            writer.write(host)
            writer.write(agent)
            writer.write(referer)
            writer.write(language)
        }
    }

    /// Writes a key's parts, each its length (`0xFFFF_FFFF` when missing) then its bytes.
    private struct KeyWriter {
        var at: UnsafeMutableRawPointer

        mutating func write(_ part: UnsafeRawBufferPointer?) {
            at.storeBytes(of: (part.map { UInt32(truncatingIfNeeded: $0.count) } ?? .max).littleEndian, as: UInt32.self)
            at += 4
            guard let part, let base = part.baseAddress else { return }
            at.copyMemory(from: base, byteCount: part.count)
            at += part.count
        }

        // Each part's bytes lent in place (appending a string's view byte by byte costs five times as much).
        mutating func write(_ part: String?) {
            guard let part else { return write(nil as UnsafeRawBufferPointer?) }
            part.withUTF8Bytes { write(UnsafeRawBufferPointer($0)) }
        }

        mutating func write(_ part: Substring?) {
            guard let part else { return write(nil as UnsafeRawBufferPointer?) }
            KeptKey.withBytes(of: part) { write($0) }
        }
    }
}

extension Response {
    /// About the bytes a response holds, as ``KeptAnswers`` counts them.
    var keptSize: Int {
        headers.reduce(body.count + 32) { $0 + $1.0.utf8.count + $1.1.utf8.count } + (location?.utf8.count ?? 0)
    }
}

extension KeptAnswers.Answer {
    fileprivate func matches(_ kind: KeptKey.Kind, _ hash: UInt64, _ key: UnsafeRawBufferPointer) -> Bool {
        guard self.hash == hash, self.kind == kind, self.key.count == key.count else { return false }
        guard let other = key.baseAddress else { return true }
        return self.key.withUnsafeBytes { mine in mine.baseAddress.map { memcmp($0, other, key.count) == 0 } ?? false }
    }
}

extension KeptAnswers.Slots {
    /// Empties the sets, and answers what they held for the caller to release; the answers kept from now on are from
    /// the snapshot numbered `serial`.
    fileprivate mutating func empty(serial: UInt64) -> [KeptAnswers.Answer?] {
        self.serial = serial
        for index in lastUsed.indices { lastUsed[index] = 0 }
        var held = Array(repeating: nil, count: answers.count) as [KeptAnswers.Answer?]
        swap(&held, &answers)
        return held
    }
}
