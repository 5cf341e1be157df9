import CommandLineSpec
import Foundation
import SuiteFixtures
import Testing

/// `--watch SECONDS` on explore and on plain trustx (the lab): whole seconds from 1 to a day; and
/// `--group`, which only the lab takes.
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

    @Test func testAGroupIsRefusedWithATargetOrChainAndMustBeALabGroup() throws {
        for args in [
            ["explore", "https://127.0.0.1:1/", "--group", "fleet"],
            ["explore", "--chain", "leaf.pem", "--group", "ct"],
        ] {
            let run = try CLI.run(args)
            #expect(run.status == 64, "\(args): \(run.err)")
            #expect(
                run.err.contains("--group chooses the lab's scenarios; it takes no target and no --chain"), "\(run.err)"
            )
        }
        let unknown = try CLI.run(["--group", "nope"])
        #expect(unknown.status == 64, "\(unknown.err)")
        #expect(unknown.err.contains("The value 'nope' is invalid for '--group <name>'"), "\(unknown.err)")
        #expect(unknown.err.contains("'fleet'"), "the groups are listed: \(unknown.err)")
    }
}
