import Logging
import Synchronization

/// How many lines of a kind that may come once per request are written (libmicrohttpd's own, a failing store's):
/// ``linesPerWindow`` per window of 10 s, and a count of those left out, told with the next line written.
struct LogBudget {
    static let linesPerWindow = 20
    static let window: Int64 = 10_000_000_000

    enum Decision: Equatable {
        /// Write the line; `suppressed` lines were left out before it.
        case write(suppressed: Int)
        case suppress
    }

    private var windowStart: Int64 = .min
    private var written = 0
    private var suppressed = 0

    mutating func admit(now: Int64) -> Decision {
        if windowStart == .min || now - windowStart >= LogBudget.window {
            windowStart = now
            written = 0
        }
        guard written < LogBudget.linesPerWindow else {
            suppressed += 1
            return .suppress
        }
        written += 1
        defer { suppressed = 0 }
        return .write(suppressed: suppressed)
    }
}

/// A ``LogBudget`` shared by the threads that write one kind of line.
final class BudgetedLog: Sendable {
    private let budget = Mutex(LogBudget())

    /// Writes the line when it is within the budget, with `suppressedBefore` when lines were left out before it.
    /// The message and metadata are made only then.
    func log(
        _ logger: Logger, _ level: Logger.Level, _ message: @autoclosure () -> Logger.Message,
        metadata: @autoclosure () -> Logger.Metadata
    ) {
        guard case .write(let suppressed) = budget.withLock({ $0.admit(now: MonotonicClock.nanoseconds()) }) else {
            return
        }
        var fields = metadata()
        if suppressed > 0 { fields["suppressedBefore"] = "\(suppressed)" }
        logger.log(level: level, message(), metadata: fields)
    }
}
