#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Monotonic seconds, for connection deadlines (the wall clock may jump).
package func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// A value guarded by a pthread mutex.
///
/// Used instead of Synchronization's `Mutex`, whose Linux futex path ThreadSanitizer cannot see
/// (every access under it is reported as a race); pthread mutexes are intercepted, so
/// `swift test --sanitize=thread` checks the servers' locking for real.
package final class LabLock<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched between pthread_mutex_lock and pthread_mutex_unlock.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    package init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
