#if canImport(Glibc)
    import Glibc
#endif

/// Timing on this thread's CPU clock: time the thread spends descheduled by other processes on the shared
/// machine does not count, so figures stay comparable while other builds run.
enum Measure {
    /// Whether `--quick` was given: shorter samples, fewer of them.
    nonisolated(unsafe) static var quick = false

    /// Nanoseconds of CPU time this thread has used.
    static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The best (lowest) nanoseconds per operation over several samples of `pass`, which performs `operations`
    /// operations and returns a checksum that keeps the optimiser from removing them.
    static func nanosecondsPerOperation(operations: Int, _ pass: () -> Int) -> Double {
        let sampleBudget: UInt64 = quick ? 5_000_000 : 40_000_000
        let samples = quick ? 3 : 7
        // Calibrate: how many passes fill one sample.
        var passes = 1
        while true {
            let start = threadCPUNanoseconds()
            for _ in 0..<passes { sink &+= pass() }
            if threadCPUNanoseconds() - start >= sampleBudget / 4 || passes >= 1 << 20 { break }
            passes *= 2
        }
        passes *= 4
        var best = Double.infinity
        for _ in 0..<samples {
            let start = threadCPUNanoseconds()
            for _ in 0..<passes { sink &+= pass() }
            let elapsed = Double(threadCPUNanoseconds() - start)
            best = min(best, elapsed / Double(passes * operations))
        }
        return best
    }

    /// Checksums of every pass, printed at the end so no measured work is dead code.
    nonisolated(unsafe) static var sink = 0
}
