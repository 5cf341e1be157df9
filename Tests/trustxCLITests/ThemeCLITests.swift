import Foundation
import SuiteFixtures
import Testing

/// `--theme`: the shipped themes are compiled in, so their names work from any directory, and a
/// path still reads a file. The explorer reads its theme before it asks for a terminal, so
/// without one a good theme ends in "needs a terminal" (64) and a bad one in its own error (65 or
/// 66): that order is what lets these tests tell them apart.
@Suite(.serialized, .onTestThreads) final class ThemeCLITests {
    var elsewhere: URL!

    init() throws {
        // A directory without themes/ in it, far from the package.
        elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-themes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: elsewhere)
    }

    func explore(theme: String) throws -> RunResult {
        let pki = try TestPKI.get()
        // A child: the working directory, which a theme's name must not depend on, is the process's.
        return try CLI.spawn(
            ["explore", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--theme", theme],
            in: elsewhere)
    }

    @Test func testHighContrastWorksFromAnotherDirectory() throws {
        #expect(!(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("themes").path)))
        let run = try explore(theme: "high-contrast")
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.contains("needs a terminal"), "\(run.err)")
        #expect(!run.err.contains("theme"), "\(run.err)")
    }

    @Test func testEveryShippedThemeIsBuiltIn() throws {
        for name in [
            "default", "light", "high-contrast", "high-contrast-light", "colorblind", "mono", "solarized-dark",
        ] {
            let run = try explore(theme: name)
            #expect(run.status == 64, "\(name): \(run.err)")
            #expect(run.err.contains("needs a terminal"), "\(name): \(run.err)")
        }
    }

    @Test func testAnUnknownNameListsTheBuiltInThemes() throws {
        let run = try explore(theme: "neon")
        #expect(run.status == 66, "\(run.err)")
        #expect(run.err.contains("no theme named 'neon'"), "\(run.err)")
        #expect(run.err.contains("colorblind"), "\(run.err)")
        #expect(!(run.err.contains("needs a terminal")), "\(run.err)")
    }

    @Test func testAThemeFileIsReadByPath() throws {
        let good = elsewhere.appendingPathComponent("mine.theme")
        try "step.failed = 208, -, bold\n".write(to: good, atomically: true, encoding: .utf8)
        let run = try explore(theme: good.path)
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.contains("needs a terminal"), "\(run.err)")

        let bad = elsewhere.appendingPathComponent("bad.theme")
        try "step.failed = red\nstep.passd = green\n".write(to: bad, atomically: true, encoding: .utf8)
        let broken = try explore(theme: bad.path)
        #expect(broken.status == 65, "\(broken.err)")
        #expect(broken.err.contains("line 2: unknown role 'step.passd'"), "\(broken.err)")

        let missing = try explore(theme: "absent.theme")
        #expect(missing.status == 66, "\(missing.err)")
        #expect(missing.err.contains("cannot read the theme file absent.theme"), "\(missing.err)")
    }

    @Test func testAThemesFolderInTheCurrentDirectoryStillWorks() throws {
        let folder = elsewhere.appendingPathComponent("themes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "label = 37\n".write(to: folder.appendingPathComponent("team.theme"), atomically: true, encoding: .utf8)
        let run = try explore(theme: "team")
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.contains("needs a terminal"), "\(run.err)")
    }

    @Test func testTheHelpNamesTheBuiltInThemes() throws {
        let run = try CLI.run(["explore", "--help"])
        #expect(run.status == 0, "\(run.err)")
        let help = run.out.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        #expect(
            help.contains("default, light, high-contrast, high-contrast-light, colorblind, mono, solarized-dark"),
            "\(run.out)")
    }
}

/// The program, not TermUI, names its non-interactive alternative.
@Suite(.serialized, .onTestThreads) final class ExploreWithoutATerminalTests {
    @Test func testTheReasonComesWithTrustxChecksName() throws {
        let pki = try TestPKI.get()
        let run = try CLI.run(["explore", "--chain", pki.path("leaf.pem")])
        #expect(run.status == 64)
        #expect(run.err.contains("needs a terminal"), "\(run.err)")
        #expect(run.err.contains("For non-interactive use, run 'trustx check'."), "\(run.err)")
    }
}
