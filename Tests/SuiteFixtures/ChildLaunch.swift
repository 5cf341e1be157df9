import Foundation
import Synchronization

/// Starting child processes while the suites run side by side (D280). Foundation's Process keeps
/// a socket whose far end only the child may hold (its end of it tells Foundation the child
/// ended), and on Linux it closes the parent's other descriptors in the child by number, up to
/// the highest open when it looks: a child started meanwhile by another thread could inherit a
/// descriptor opened after that look and hold it open for its whole life (a test waiting for its
/// own child's end, or for a pipe's end, would then wait for that other child). So every test
/// starts its children one at a time through `run`, and the tmux client, whose server outlives
/// it, through `spawn`, which closes every descriptor it does not hand over.
public enum ChildLaunch {
    private static let one = Mutex(())

    /// Runs `body` (which starts a child: `Process.run`, pipes made for it) alone among the test
    /// process's starts, with this thread's signal mask emptied: a child inherits the mask of the
    /// thread that starts it, and Swift Testing's threads block most signals (a server started
    /// there would ignore the SIGTERM that stops it).
    public static func run<T>(_ body: () throws -> T) rethrows -> T {
        try one.withLock { _ in
            var none = sigset_t()
            var previous = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, &previous)
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            return try body()
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np"
    ).map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Runs `arguments` (an absolute path first) with standard input from /dev/null, standard
    /// output and error into one pipe, and no other descriptor of this process; returns what it
    /// printed once the pipe closes, and its exit status.
    public static func spawn(_ arguments: [String]) -> (output: String, status: Int32) {
        var fds: [Int32] = [-1, -1]
        var pid = pid_t()
        let spawned: Int32 = run {
            guard pipe(&fds) == 0 else { return errno }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
            if let addCloseFrom { _ = addCloseFrom(&actions, 3) }
            let argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
            close(fds[1])
            return status
        }
        defer { close(fds[0]) }
        guard spawned == 0 else { return ("could not start \(arguments[0]): errno \(spawned)", -1) }
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (String(decoding: out, as: UTF8.self), status)
    }
}

extension Process {
    /// Waits for the child to end. Foundation's `waitUntilExit` turns the run loop in 50 ms
    /// slices on Linux, most of a short child's whole run and seconds over a suite; `isRunning`
    /// turns false as soon as Foundation has reaped the child (its status is then set), so
    /// polling it every millisecond waits only as long as the child runs.
    public func waitForExit() {
        // Bounded: a child that has not ended 5 s after the test asked it to (tinyproxy can miss
        // a SIGTERM that arrives while it starts) is killed, so no test waits on it forever. One
        // whose end Foundation still has not seen 30 s after that never will (another child
        // holds the descriptor that reports it): the run stops with the reason, not a hang.
        var waited = 0
        while isRunning {
            if waited == 5_000 { kill(processIdentifier, SIGKILL) }
            if waited == 35_000 {
                fatalError("\(executableURL?.path ?? "a child") was killed 30 s ago and its end was never seen")
            }
            usleep(1000)
            waited += 1
        }
    }
}
