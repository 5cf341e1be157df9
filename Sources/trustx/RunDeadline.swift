import Synchronization
import TrustCore
import TrustLab
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one deadline of a `trustx check HOST` run (`--timeout`): connecting, the handshake, AIA
/// fetches and evaluation all end by it (D45).
struct RunDeadline {
    /// The instant the run must end by.
    let evaluation: EvaluationDeadline

    /// A deadline `timeout` from now.
    init(after timeout: Duration) { evaluation = EvaluationDeadline(after: timeout) }

    /// Runs `body` on its own thread and waits for it until the deadline; nil when the deadline
    /// came first. The thread is then left running: a command ends its process right after, and
    /// no part of `body` can be interrupted from outside. The probe and its AIA fetches wait on
    /// this same deadline (D96), so the thread is a backstop for work done between two looks at
    /// the clock (OpenSSL processing a handshake message, decoding what a fetch brought).
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return body() }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let result = Mutex<T?>(nil)
        let started = try? POSIXThread(detached: true) {
            let value = body()
            result.withLock { $0 = value }
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
        guard started != nil else {
            close(readEnd)
            close(writeEnd)
            return body()
        }
        var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        while true {
            let left = evaluation.instant - ContinuousClock.now
            guard left > .zero else { break }
            let (seconds, attoseconds) = left.components
            let ms = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            let ready = poll(&poller, 1, ms)
            if ready > 0 { break }
            if ready < 0 && errno != EINTR { break }
        }
        guard let value = result.withLock({ $0 }) else {
            // The thread may still write its byte: both ends stay open until the process exits.
            return nil
        }
        close(readEnd)
        close(writeEnd)
        return value
    }
}
