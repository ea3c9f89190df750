import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Process limits the daemon needs.
enum OpenFileLimit {
    /// Raises the soft `RLIMIT_NOFILE` towards `wanted` (capped by the hard limit) so the connection limit can be
    /// reached; logs when the hard limit is lower.
    static func raiseOpenFiles(toAtLeast wanted: Int, logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let target = rlim_t(wanted)
        guard limit.rlim_cur < target else { return }
        let granted = min(target, limit.rlim_max)
        limit.rlim_cur = granted
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 || granted < target {
            logger.warning(
                "open-file limit below the listeners' connection limit; raise it (ulimit -n, LimitNOFILE)",
                metadata: ["limit.wanted": "\(wanted)", "limit.granted": "\(granted)"])
        }
    }
}
