import TrustCore
import TrustLab
import TrustSupport

/// The one deadline of a `trustx check HOST` run (`--timeout`): connecting, the handshake, AIA
/// fetches and evaluation all end by it (D45).
struct RunDeadline {
    /// The instant the run must end by.
    let evaluation: EvaluationDeadline

    /// A deadline `timeout` from now.
    init(after timeout: Duration) { evaluation = EvaluationDeadline(after: timeout) }

    /// Runs `body` on its own thread and waits for it until the deadline; nil when the deadline
    /// came first. The thread is then left running (DeadlineRunner): no part of `body` can be interrupted from outside. The probe and its AIA fetches wait on
    /// this same deadline (D96), so the thread is a backstop for work done between two looks at
    /// the clock (OpenSSL processing a handshake message, decoding what a fetch brought).
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
        DeadlineRunner.run(until: evaluation.instant, body)
    }
}
