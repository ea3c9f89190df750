import DequeModule

/// A per-client budget of `limit` requests over any sliding `window` (API.md §7: `links.appRateLimit` requests a
/// minute per address for the app-facing endpoints of the links listener).
///
/// Each client keeps the times of its admitted requests in the window, at most `limit` of them, oldest first: a
/// request drops the times that left the window from the front and appends its own, in place, so it costs the same
/// whatever the limit (amortised; the times were copied whole, then filtered, on every request, which a limit raised
/// for a proxy or a soak made a cost per request of the limit's size). Clients idle for a whole window are forgotten
/// (``sweep(now:)``), so memory holds only the last window's addresses, each at most `limit` times. A value type:
/// the owner keeps it behind a lock.
public struct SlidingWindowLimiter: Sendable {
    /// The outcome of ``admit(_:now:)``.
    public enum Decision: Sendable, Equatable {
        case admitted
        /// Refused; retry after this many whole seconds.
        case limited(retryAfter: Int)
    }

    public let limit: Int
    /// The window in milliseconds.
    public let window: Int64
    private var clients: [String: Deque<Int64>] = [:]
    /// When ``admit(_:now:)`` last forgot the idle clients.
    private var lastSweep: Int64 = 0

    public init(limit: Int, windowMilliseconds: Int64 = 60_000) {
        self.limit = limit
        self.window = windowMilliseconds
    }

    /// Admits a request from `client` at `now` (milliseconds), or says when its budget has room again.
    public mutating func admit(_ client: String, now: Int64) -> Decision {
        // Once a window at most (one pass over the clients): an address is not kept past its last request's window.
        if now - lastSweep >= window { sweep(now: now) }
        return Self.admit(at: now, into: &clients[client, default: []], limit: limit, window: window)
    }

    /// One client's step, on its times in place (the dictionary's element is modified, not copied out and back).
    private static func admit(at now: Int64, into times: inout Deque<Int64>, limit: Int, window: Int64) -> Decision {
        while let oldest = times.first, oldest <= now - window { times.removeFirst() }
        guard times.count < limit else {
            let wait = times[0] + window - now
            return .limited(retryAfter: Int(max(1, (wait + 999) / 1000)))
        }
        times.append(now)
        return .admitted
    }

    /// Whether a request from `client` at `now` would be admitted, admitting nothing (what a `HEAD` asks of a
    /// budget its `GET` would spend).
    public func wouldAdmit(_ client: String, now: Int64) -> Bool {
        guard let times = clients[client] else { return limit > 0 }
        return times.count { $0 > now - window } < limit
    }

    /// Forgets clients with no request in the last window.
    public mutating func sweep(now: Int64) {
        clients = clients.filter { _, times in times.last.map { $0 > now - window } ?? false }
        lastSweep = now
    }

    /// How many clients are remembered.
    public var clientCount: Int { clients.count }
}
