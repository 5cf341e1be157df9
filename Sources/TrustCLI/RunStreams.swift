import Synchronization
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a run's standard output or standard error goes.
public enum OutputSink: Sendable {
    /// A file descriptor, written with `write(2)`: 1 and 2 for the process's own streams.
    case descriptor(Int32)
    /// A buffer in memory, for a caller that runs the command line in process (the tests).
    case capture(CapturedOutput)
}

/// The bytes a run wrote to an `OutputSink.capture`, in the order written.
public final class CapturedOutput: Sendable {
    private let buffer = Mutex<[UInt8]>([])

    /// An empty buffer.
    public init() {}

    /// Everything written so far.
    public var bytes: [UInt8] { buffer.withLock { $0 } }

    /// Everything written so far, as UTF-8 text (invalid bytes replaced).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    func append(_ text: String) { buffer.withLock { $0.append(contentsOf: text.utf8) } }
}

/// One run's contact with the outside: the streams it reads and writes and the input cap its
/// files share. Bound for the run's duration as a task-local value, so runs side by side in one
/// process (the tests) each see their own; threads a run starts bind it again (`bound(_:)`).
final class RunStreams: Sendable {
    /// The descriptor `-` reads (`--chain -`, `--targets -`, `lint -`).
    let standardInput: Int32
    let output: OutputSink
    let errorOutput: OutputSink
    /// The errno of the first failed write to `output`, 0 while none failed (`Output.finalStatus`).
    let outputFailure = Atomic<Int32>(0)
    /// The run's input cap; `check --watch` starts a new one each round (D241).
    let inputAllowance = Mutex(InputAllowance())
    /// Set by `check --watch`, which blocks its stop signals in every thread it starts: writes
    /// to a descriptor then wait in poll(2) and give up when one of these is pending, so a
    /// reader that stops reading cannot keep a watch from ending (D325).
    let stopSignals = Mutex<sigset_t?>(nil)
    /// Whether a write gave up for a stop signal (the watch then ends).
    let stopped = Atomic<Bool>(false)

    init(standardInput: Int32, output: OutputSink, errorOutput: OutputSink) {
        self.standardInput = standardInput
        self.output = output
        self.errorOutput = errorOutput
    }

    /// Whether these are the process's own descriptors 0, 1 and 2: only then may the run take
    /// the terminal (the explorer), whose library looks at those descriptors and no others.
    var isProcess: Bool {
        guard standardInput == 0, case .descriptor(1) = output, case .descriptor(2) = errorOutput else { return false }
        return true
    }

    /// Whether standard input is a terminal (a prompt then says how to end it).
    var standardInputIsTerminal: Bool { isatty(standardInput) == 1 }

    /// The current run's streams: the process's own unless a run bound others.
    @TaskLocal static var current = RunStreams(standardInput: 0, output: .descriptor(1), errorOutput: .descriptor(2))

    /// `body` with the current run's streams, for a thread the run starts: task-local values
    /// are not inherited by threads made with pthread_create.
    static func bound<T>(_ body: @escaping @Sendable () -> T) -> @Sendable () -> T {
        let run = current
        return { $current.withValue(run) { body() } }
    }
}

extension Trustx {
    /// Runs the command line `arguments` (without the program name) in this process and returns
    /// its exit status: what the executable's `main` does with the process's streams, and what
    /// the tests do with buffers. Nothing on this path ends the process; every outcome,
    /// usage errors and help included, is the returned status.
    ///
    /// - Parameters:
    ///   - arguments: The words after `trustx`.
    ///   - environment: The variables the output depends on (colour, locale, terminal).
    ///   - standardInput: The descriptor `-` reads; the process's 0 by default.
    ///   - output: Standard output.
    ///   - errorOutput: Standard error.
    ///   - now: The wall-clock time the run evaluates at (read once by the caller).
    /// - Returns: The exit status (0 trusted or done, 1 not trusted, sysexits values for errors).
    public static func run(
        arguments: [String], environment: Environment, standardInput: Int32 = 0,
        output: OutputSink = .descriptor(1), errorOutput: OutputSink = .descriptor(2), now: Timestamp
    ) -> Int32 {
        let streams = RunStreams(standardInput: standardInput, output: output, errorOutput: errorOutput)
        return RunStreams.$current.withValue(streams) {
            Output.finalStatus(main(arguments, now: now, environment: environment)).rawValue
        }
    }
}
