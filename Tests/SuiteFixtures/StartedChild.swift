import Foundation

/// A child the test keeps running while it works with it: signals it (SIGSTOP, SIGTERM, SIGINT),
/// watches it end, reads its status. Started through `ChildLaunch` like every other child; a
/// child that only has to run to its end goes through `ProcessRunner` instead.
public final class StartedChild: @unchecked Sendable {  // the process is set up before it starts, then only read
    private let process = Process()

    /// Starts `executable` with `arguments` in `directory` (the test's own when nil), with
    /// `environment` (the test process's when nil), standard input from /dev/null, and its
    /// outputs into `stdout` and `stderr` (/dev/null when nil). The handles are the child's own
    /// once it runs: the caller may close its copies.
    public init(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        stdout: FileHandle? = nil, stderr: FileHandle? = nil
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout ?? FileHandle.nullDevice
        process.standardError = stderr ?? FileHandle.nullDevice
        try ChildLaunch.run { try process.run() }
    }

    /// The child's process id.
    public var pid: pid_t { process.processIdentifier }

    /// True until the child has ended and been reaped.
    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the child to end, bounded as `Process.waitForExit` is.
    public func waitForExit() { process.waitForExit() }

    /// True when the child ended by exiting, false when a signal ended it.
    public var exited: Bool { process.terminationReason == .exit }

    /// The exit status, or the number of the signal that ended the child.
    public var status: Int32 { process.terminationStatus }
}
