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
