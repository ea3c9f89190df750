import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// Wall-clock time, for timestamps that must mean the same after a restart (events, slots, statistics).
enum WallClock {
    /// Milliseconds since the Unix epoch.
    static func milliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec / 1_000_000)
    }

    /// Now as RFC 3339 UTC with milliseconds, e.g. `2026-11-21T09:00:00.123Z`.
    static func rfc3339Now() -> String {
        UTCCalendar.rfc3339(milliseconds: milliseconds())
    }
}
