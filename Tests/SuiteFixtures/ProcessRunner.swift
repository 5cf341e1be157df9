import Foundation
import Synchronization

/// What a child process wrote and how it ended.
public struct ProcessOutput: Sendable {
    /// The exit status (or the signal's number, when a signal ended it).
    public var status: Int32
    /// Everything written to standard output.
    public var stdout: Data
    /// Everything written to standard error.
    public var stderr: Data

    /// What a run produced, for runners that capture it another way (in process).
    public init(status: Int32, stdout: Data, stderr: Data) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Standard output as text.
    public var out: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error as text.
    public var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// The tests' one way to run a command to completion: started through `ChildLaunch` (so no other
/// child inherits its pipes), its input written and both outputs drained at the same time, each on
/// a thread of its own. Reading one pipe to its end before the other blocks as soon as the child
/// fills the other one (64 KiB) and waits for it to be read.
public enum ProcessRunner {
    /// Runs `executable` with `arguments` in `directory` (the test's own when nil), with
    /// `environment` (the test process's when nil) and `stdin` as its standard input (empty when
    /// nil), and returns once it has exited and both outputs are closed. A child still running
    /// `timeout` seconds after it started is killed (SIGKILL; its status is then the signal's).
    public static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        stdin: Data? = nil, timeout: Double? = nil
    ) throws -> ProcessOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let (out, err, input) = try ChildLaunch.run {
            let pipes = (Pipe(), Pipe(), Pipe())
            process.standardOutput = pipes.0
            process.standardError = pipes.1
            process.standardInput = pipes.2
            try process.run()
            return pipes
        }
        let errors = Drain(err.fileHandleForReading)
        let writer = input.fileHandleForWriting
        let feeder = Thread {
            if let stdin, !stdin.isEmpty { try? writer.write(contentsOf: stdin) }
            try? writer.close()
        }
        feeder.start()
        let watchdog = timeout.map { seconds in
            let pid = process.processIdentifier
            let item = DispatchWorkItem { kill(pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
            return item
        }
        defer { watchdog?.cancel() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.wait()
        process.waitForExit()
        return ProcessOutput(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Runs `command` with `/bin/sh -c` in `directory`.
    public static func shell(_ command: String, in directory: URL? = nil, stdin: Data? = nil) throws -> ProcessOutput {
        try run("/bin/sh", ["-c", command], in: directory, stdin: stdin)
    }

    /// Reads a pipe to its end on a thread of its own.
    private final class Drain: Sendable {
        private let result = Mutex<Data?>(nil)
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                let data = handle.readDataToEndOfFile()
                result.withLock { $0 = data }
                done.signal()
            }
        }

        /// What the pipe held, once it closed.
        func wait() -> Data {
            done.wait()
            return result.withLock { $0 ?? Data() }
        }
    }
}
