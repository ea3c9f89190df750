#if canImport(Glibc)
    import Glibc
#endif

/// Wall-clock time for event timestamps.
enum WallClock {
    /// Now as RFC 3339 UTC with milliseconds, e.g. `2026-11-21T09:00:00.123Z`.
    static func rfc3339Now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2) + "T"
            + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2) + "."
            + pad(Int32(spec.tv_nsec / 1_000_000), 3) + "Z"
    }
}
