import Foundation

/// Waits until `condition` holds, checking every 10 ms; fails the caller (returns false) after `timeout`.
/// For conditions the server reaches asynchronously (a poll now waiting, a waiter freed), not for timing.
func waitUntil(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}
