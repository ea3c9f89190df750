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

/// Nanoseconds on `ContinuousClock`'s clock (`CLOCK_BOOTTIME` on Linux: it keeps counting while the machine sleeps),
/// as a plain integer. For per-request timing: `ContinuousClock.now` and the `Duration` arithmetic on it cost
/// several times the read, and a `ContinuousClock.Instant` stored in a class (a standard-library type that is not
/// frozen, so its size is unknown to the compiler) moves every later field to an offset computed at run time, which
/// makes copies of those fields generic.
enum MonotonicClock {
    static func nanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
