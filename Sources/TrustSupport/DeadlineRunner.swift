import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs work on its own thread and waits for it until an instant: the backstop behind a run's
/// `--timeout`, for work that cannot be interrupted from outside (OpenSSL inside a handshake).
public enum DeadlineRunner {
    /// Who owns the wake-up pipe once the waiter stops waiting: the waiter when the value came in
    /// time, the worker when the waiter gave up (it closes both ends when it finishes), so a run
    /// that times out again and again (a watched fleet) does not leave two descriptors each time.
    private struct Handoff<T: Sendable>: Sendable {
        var value: T?
        var abandoned = false
    }

    /// Runs `body` on a detached thread and returns its value, or nil when `instant` came first.
    /// The thread is then left to finish on its own; it releases what it shares with the waiter.
    /// When no thread can be started, `body` runs on the caller's thread.
    public static func run<T: Sendable>(
        until instant: ContinuousClock.Instant, _ body: @escaping @Sendable () -> T
    ) -> T? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return body() }
        // Kept from any child the process starts meanwhile, which would hold the pipe open.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let handoff = Mutex(Handoff<T>())
        let started = try? POSIXThread(detached: true) {
            let value = body()
            let abandoned = handoff.withLock { state -> Bool in
                if state.abandoned { return true }
                state.value = value
                // Written under the lock: the waiter closes the pipe only after taking the value
                // under the same lock, so this byte never goes to a closed or reused descriptor.
                var byte: UInt8 = 1
                _ = write(writeEnd, &byte, 1)
                return false
            }
            if abandoned {
                close(readEnd)
                close(writeEnd)
            }
        }
        guard started != nil else {
            close(readEnd)
            close(writeEnd)
            return body()
        }
        var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        while true {
            let left = instant - ContinuousClock.now
            guard left > .zero else { break }
            let (seconds, attoseconds) = left.components
            let ms = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            let ready = poll(&poller, 1, ms)
            if ready > 0 { break }
            if ready < 0 && errno != EINTR { break }
        }
        let value = handoff.withLock { state -> T? in
            if state.value == nil { state.abandoned = true }
            return state.value
        }
        guard let value else { return nil }
        close(readEnd)
        close(writeEnd)
        return value
    }
}
