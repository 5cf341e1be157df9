#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX thread running one closure: the lab's servers, the explorer's effects and the
/// executable's run deadline use it instead of Foundation's `Thread`, whose start-up cost every
/// trustx run would pay. It lives in TrustSupport, below all three users (D130).
public final class POSIXThread: @unchecked Sendable {
    // @unchecked: `thread` is written once in init, before the object is shared, and then only
    // read by join, which only the owner calls.
    #if canImport(Glibc)
        private var thread = pthread_t()
    #else
        private var thread: pthread_t?
    #endif
    private var joined = false
    private let detached: Bool

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread; a detached thread cleans up after itself and cannot be joined.
    /// - Throws: The `pthread_create` error number when no thread could be created.
    public init(detached: Bool = false, _ body: @escaping @Sendable () -> Void) throws(POSIXThreadError) {
        self.detached = detached
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
            throw POSIXThreadError(errno: result)
        }
        if detached {
            #if canImport(Glibc)
                pthread_detach(thread)
            #else
                if let thread { pthread_detach(thread) }
            #endif
        }
    }

    /// Waits for a joinable thread to finish; only the owner calls it. Idempotent.
    public func join() {
        guard !detached, !joined else { return }
        joined = true
        #if canImport(Glibc)
            pthread_join(thread, nil)
        #else
            if let thread { pthread_join(thread, nil) }
        #endif
    }
}

/// Why a thread could not be created.
public struct POSIXThreadError: Error, Sendable {
    /// The `pthread_create` error number.
    public var errno: Int32
}
