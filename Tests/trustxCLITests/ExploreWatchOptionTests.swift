import Foundation
import SuiteFixtures
import Testing

/// `--watch SECONDS` on explore and on plain trustx (the lab): whole seconds from 1 to a day.
@Suite(.serialized, .onTestThreads) final class ExploreWatchOptionTests {
    @Test func testAWatchIntervalOutsideOneSecondToADayIsAUsageError() throws {
        for (args, value) in [
            (["explore", "--watch", "0"], "0"), (["--watch", "1.5"], "1.5"), (["--watch", "86401"], "86401"),
        ] {
            let run = try CLI.run(args)
            #expect(run.status == 64, "\(run.err)")
            #expect(run.err.contains("The value '\(value)' is invalid for '--watch <seconds>'"), "\(args): \(run.err)")
        }
    }
}
