import Foundation
import Synchronization
import Testing

/// Threads of the tests' own for tests that block: a test that waits on a child process, a socket
/// or a deadline holds its thread while it waits, and Swift Testing's pool has one thread per
/// core (two here), so two such tests would stall every other test, the tmux tests' screen polls
/// among them. Jobs of a test under `.onTestThreads` run here instead, at most `width` at once.
public final class TestThreads: TaskExecutor, Sendable {
    /// The one pool every suite under `.onTestThreads` shares.
    public static let shared = TestThreads(width: 4)

    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    init(width: Int) {
        for n in 0..<width {
            let thread = Thread { [self] in
                // Every signal deliverable here: these threads are made from Swift Testing's,
                // which block most signals, and a SIGCHLD that no thread takes is never handled,
                // so Foundation would never see a child end.
                var none = sigset_t()
                sigemptyset(&none)
                pthread_sigmask(SIG_SETMASK, &none, nil)
                while true {
                    ready.wait()
                    guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                    job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }
            thread.name = "test thread \(n)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }
}

/// Runs each test of a suite on `TestThreads` (see there why).
public struct OnTestThreads: SuiteTrait, TestTrait, TestScoping {
    /// Around each test of the suite.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == OnTestThreads {
    /// Each test on `TestThreads`, so that a test that blocks holds none of Swift Testing's threads.
    public static var onTestThreads: Self { OnTestThreads() }
}
