import Foundation
import Synchronization

/// Threads that run the requests which wait on a shared store (API.md §12), so that a libmicrohttpd thread never
/// blocks on the database: the request's connection is suspended, a worker runs the endpoint (one database round
/// trip, or up to the store's timeout while it is unreachable), and the answer resumes the connection.
///
/// Dedicated threads rather than Dispatch's pool: a worker parks on the store's answer, which is computed by a task
/// on Dispatch's threads (``AsyncBridge``); parking those very threads could starve it.
final class StoreWorkers: Sendable {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var next = 0
        var running = true
    }

    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)
    private let count: Int

    init(threads: Int) {
        count = threads
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "linkserver-store-\(index)"
            thread.start()
        }
    }

    /// Runs `job` on a worker.
    func submit(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.jobs.append(job) }
        available.signal()
    }

    /// Lets the workers finish what is queued, then stop.
    func stop() {
        queue.withLock { $0.running = false }
        for _ in 0..<count { available.signal() }
    }

    private func work() {
        while true {
            available.wait()
            let job = queue.withLock { queue -> (@Sendable () -> Void)? in
                guard queue.next < queue.jobs.count else { return nil }
                let job = queue.jobs[queue.next]
                queue.next += 1
                if queue.next > 1024, queue.next * 2 > queue.jobs.count {
                    queue.jobs.removeFirst(queue.next)
                    queue.next = 0
                }
                return job
            }
            if let job {
                job()
            } else if !queue.withLock({ $0.running }) {
                return
            }
        }
    }
}
