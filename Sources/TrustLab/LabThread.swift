#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A joinable POSIX thread running one closure (the lab avoids Foundation's Thread).
final class LabThread: @unchecked Sendable {
    // @unchecked: `thread` is written once in init, before the object is shared, and then only read by join.
    #if canImport(Glibc)
        private var thread = pthread_t()
    #else
        private var thread: pthread_t?
    #endif
    private var joined = false

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread.
    /// - Throws: `LabError.system` when the thread cannot be created.
    init(_ body: @escaping @Sendable () -> Void) throws(LabError) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, box)
        if result != 0 {
            Unmanaged<Body>.fromOpaque(box).release()
            throw .system(operation: "pthread_create", errno: result)
        }
    }

    /// Waits for the thread to finish; only the owner calls it, once.
    func join() {
        guard !joined else { return }
        joined = true
        #if canImport(Glibc)
            pthread_join(thread, nil)
        #else
            if let thread { pthread_join(thread, nil) }
        #endif
    }
}

/// Monotonic seconds, for connection deadlines (the wall clock may jump).
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// A value guarded by a pthread mutex.
///
/// Used instead of Synchronization's `Mutex`, whose Linux futex path ThreadSanitizer cannot see
/// (every access under it is reported as a race); pthread mutexes are intercepted, so
/// `swift test --sanitize=thread` checks the servers' locking for real.
final class LabLock<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched between pthread_mutex_lock and pthread_mutex_unlock.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    init(_ state: State) {
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
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
