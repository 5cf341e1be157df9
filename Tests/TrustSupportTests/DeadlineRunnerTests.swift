import Foundation
import Synchronization
import TrustSupport
import XCTest

/// The deadline backstop returns the work's value in time, nil after the deadline, and gives back
/// its descriptors either way: a watched fleet runs it every round for hours.
final class DeadlineRunnerTests: XCTestCase {
    /// The number of descriptors this process has open.
    private func openDescriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    func testWorkThatFinishesInTimeGivesItsValueAndKeepsNoDescriptor() throws {
        let before = try openDescriptors()
        let value = DeadlineRunner.run(until: .now + .seconds(30)) { 42 }
        XCTAssertEqual(value, 42)
        XCTAssertEqual(try openDescriptors(), before)
    }

    func testWorkPastTheDeadlineGivesNilAndReleasesItsDescriptorsWhenItEnds() throws {
        let before = try openDescriptors()
        let release = Mutex(false)
        let finished = Mutex(0)
        let rounds = 5
        for _ in 0..<rounds {
            let value = DeadlineRunner.run(until: .now + .milliseconds(20)) { () -> Int in
                while !release.withLock({ $0 }) { usleep(1_000) }
                finished.withLock { $0 += 1 }
                return 1
            }
            XCTAssertNil(value, "the deadline came before the work ended")
        }
        XCTAssertEqual(
            try openDescriptors(), before + 2 * rounds, "each abandoned run holds its pipe until its work ends")
        release.withLock { $0 = true }
        // The workers close the pipes after they finish; wait for that, bounded.
        let guardInstant = ContinuousClock.now + .seconds(10)
        while try openDescriptors() != before && ContinuousClock.now < guardInstant { usleep(2_000) }
        XCTAssertEqual(finished.withLock { $0 }, rounds)
        XCTAssertEqual(try openDescriptors(), before)
    }
}
