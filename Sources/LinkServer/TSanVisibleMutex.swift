#if LINK_TSAN
    import LinkCore

    /// ThreadSanitizer builds only: this module's `Mutex` is one ThreadSanitizer can see (LinkCore's
    /// `TSanVisibleMutex` says why).
    typealias Mutex = TSanVisibleMutex
#endif
