#if LINK_TSAN
    import Glibc

    /// A stand-in for Synchronization's `Mutex` in ThreadSanitizer builds only (`-DLINK_TSAN`, set by
    /// `scripts/test-tsan`); no other build compiles this file's contents.
    ///
    /// On Linux, `Mutex` locks with futex calls inside libswiftSynchronization, which ThreadSanitizer neither
    /// instruments nor intercepts: it sees no ordering between two `withLock` bodies, and reports every correctly
    /// locked access as a race (a four-thread program that only ever touches a dictionary inside `withLock` is
    /// reported). A pthread mutex is intercepted, so in those builds each module that locks says
    /// `typealias Mutex = TSanVisibleMutex` and every `Mutex(…)` / `withLock` of the module runs on one; the code
    /// under test is otherwise the same.
    package final class TSanVisibleMutex<Value>: @unchecked Sendable {
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        /// Out of line, like the lock: an access through a pointer is checked as the memory it touches, not as a
        /// Swift variable (a stored `var` of an empty type, `Mutex(())`, was reported at the object's own address).
        private let value = UnsafeMutablePointer<Value>.allocate(capacity: 1)

        package init(_ initialValue: Value) {
            value.initialize(to: initialValue)
            pthread_mutex_init(lock, nil)
        }

        deinit {
            pthread_mutex_destroy(lock)
            lock.deallocate()
            value.deinitialize(count: 1)
            value.deallocate()
        }

        package func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return try body(&value.pointee)
        }
    }

    typealias Mutex = TSanVisibleMutex
#endif
