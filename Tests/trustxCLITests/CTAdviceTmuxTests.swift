import Foundation
import SuiteFixtures
import Testing
import TrustLab

/// The explorer under a real terminal on the CT lab's ct-one-operator, its root as the system
/// store and the lab's log list: trusted, and the `certificate-transparency` step's Detail names
/// Apple's published CT policy (support.apple.com/103214), which counts at most 2 embedded SCTs per
/// log operator toward the 3 a 397-day leaf needs.
@Suite(.serialized, .enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
final class CTAdviceTmuxTests {
    @Test func testTheCTStepsDetailShowsThePublishedPolicysAdvice() async throws {
        var options = LabOptions()
        options.groups = [LabScenarioGroup.certificateTransparency.id]
        let lab = try Lab.start(options.patient)
        defer { lab.stop() }
        let s = try #require(lab.scenario("ct-one-operator"))
        let dir = try TmuxSession.directory("ct-advice")
        let tmux = TmuxSession()
        try tmux.startTrustx(
            ["explore"] + s.targetArguments + [
                "--store", lab.anchor(.ctLabRoot).path, "--ct-logs", lab.directory + "/ct-logs.json",
            ], in: dir)
        _ = try await tmux.screen(containing: "✓ Trusted")
        try tmux.send("3")
        var text = try tmux.capture()
        // Down the Steps pane to the CT step; the Detail pane follows the selection.
        for _ in 0..<60 where !text.contains("Apple's published CT policy") {
            try tmux.send("j")
            text = try await tmux.screen { $0 != text || $0.contains("Apple's published CT policy") }
        }
        #expect(text.contains("Apple's published CT policy"), "\(text)")
        try tmux.send("q")
        #expect(try await tmux.screen(containing: "EXIT=").contains("EXIT=0"))
    }
}
