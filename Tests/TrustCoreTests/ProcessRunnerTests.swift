import Foundation
import SuiteFixtures
import XCTest

/// SuiteFixtures' process runner drains both outputs at once: a child that fills standard error
/// before it writes or closes standard output still finishes, where reading standard output to its
/// end first waits on a child blocked writing to the full standard error pipe.
final class ProcessRunnerTests: XCTestCase {
    func testAChildThatFillsStandardErrorFirstFinishes() throws {
        // 1 MiB to stderr, then one line to stdout. `timeout` ends a child stuck on a full pipe
        // after 20 s (status 124), so a runner that deadlocks fails here instead of hanging.
        let start = Date()
        let r = try ProcessRunner.run(
            "/usr/bin/env", ["timeout", "20", "sh", "-c", "head -c 1048576 /dev/zero >&2; echo done"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.out, "done\n")
        XCTAssertEqual(r.stderr.count, 1_048_576)
        XCTAssertLessThan(Date().timeIntervalSince(start), 15)
    }

    func testStandardInputReachesTheChildWhileItWrites() throws {
        // 1 MiB in, echoed out by cat: writing all of it before reading would fill both pipes.
        let input = Data(repeating: 0x61, count: 1_048_576)
        let r = try ProcessRunner.run("/usr/bin/env", ["timeout", "20", "cat"], stdin: input)
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, input)
    }

    func testAChildStillRunningAtTheTimeoutIsKilled() throws {
        // `sleep` itself, not a shell around it: a shell's child would keep the pipes open.
        let start = Date()
        let r = try ProcessRunner.run("/bin/sleep", ["30"], timeout: 0.3)
        XCTAssertEqual(r.status, SIGKILL, "the status of a child a signal ended is the signal's number")
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "the runner waited for the child's own end")
    }

    func testAChildThatEndsBeforeTheTimeoutIsLeftAlone() throws {
        let r = try ProcessRunner.run("/bin/sh", ["-c", "echo ok"], timeout: 30)
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.out, "ok\n")
    }
}
