import Foundation
import XCTest

/// `--theme`: the shipped themes are compiled in, so their names work from any directory, and a
/// path still reads a file. The explorer reads its theme before it asks for a terminal, so
/// without one a good theme ends in "needs a terminal" (64) and a bad one in its own error (65 or
/// 66): that order is what lets these tests tell them apart.
final class ThemeCLITests: XCTestCase {
    var elsewhere: URL!

    override func setUpWithError() throws {
        // A directory without themes/ in it, far from the package.
        elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-themes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: elsewhere)
    }

    func explore(theme: String) throws -> RunResult {
        let pki = try TestPKI.get()
        return try CLI.run(
            ["explore", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--theme", theme],
            in: elsewhere)
    }

    func testHighContrastWorksFromAnotherDirectory() throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("themes").path))
        let run = try explore(theme: "high-contrast")
        XCTAssertEqual(run.status, 64, run.err)
        XCTAssertTrue(run.err.contains("needs a terminal"), run.err)
        XCTAssertFalse(run.err.contains("theme"), run.err)
    }

    func testEveryShippedThemeIsBuiltIn() throws {
        for name in ["default", "light", "high-contrast", "colorblind", "mono", "solarized-dark"] {
            let run = try explore(theme: name)
            XCTAssertEqual(run.status, 64, "\(name): \(run.err)")
            XCTAssertTrue(run.err.contains("needs a terminal"), "\(name): \(run.err)")
        }
    }

    func testAnUnknownNameListsTheBuiltInThemes() throws {
        let run = try explore(theme: "neon")
        XCTAssertEqual(run.status, 66, run.err)
        XCTAssertTrue(run.err.contains("no theme named 'neon'"), run.err)
        XCTAssertTrue(run.err.contains("colorblind"), run.err)
        XCTAssertFalse(run.err.contains("needs a terminal"), run.err)
    }

    func testAThemeFileIsReadByPath() throws {
        let good = elsewhere.appendingPathComponent("mine.theme")
        try "step.failed = 208, -, bold\n".write(to: good, atomically: true, encoding: .utf8)
        let run = try explore(theme: good.path)
        XCTAssertEqual(run.status, 64, run.err)
        XCTAssertTrue(run.err.contains("needs a terminal"), run.err)

        let bad = elsewhere.appendingPathComponent("bad.theme")
        try "step.failed = red\nstep.passd = green\n".write(to: bad, atomically: true, encoding: .utf8)
        let broken = try explore(theme: bad.path)
        XCTAssertEqual(broken.status, 65, broken.err)
        XCTAssertTrue(broken.err.contains("line 2: unknown role 'step.passd'"), broken.err)

        let missing = try explore(theme: "absent.theme")
        XCTAssertEqual(missing.status, 66, missing.err)
        XCTAssertTrue(missing.err.contains("cannot read the theme file absent.theme"), missing.err)
    }

    func testAThemesFolderInTheCurrentDirectoryStillWorks() throws {
        let folder = elsewhere.appendingPathComponent("themes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "label = 37\n".write(to: folder.appendingPathComponent("team.theme"), atomically: true, encoding: .utf8)
        let run = try explore(theme: "team")
        XCTAssertEqual(run.status, 64, run.err)
        XCTAssertTrue(run.err.contains("needs a terminal"), run.err)
    }

    func testTheHelpNamesTheBuiltInThemes() throws {
        let run = try CLI.run(["explore", "--help"])
        XCTAssertEqual(run.status, 0, run.err)
        let help = run.out.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        XCTAssertTrue(
            help.contains("default, light, high-contrast, colorblind, mono, solarized-dark"), run.out)
    }
}

/// The program, not TermUI, names its non-interactive alternative.
final class ExploreWithoutATerminalTests: XCTestCase {
    func testTheReasonComesWithTrustxChecksName() throws {
        let pki = try TestPKI.get()
        let run = try CLI.run(["explore", "--chain", pki.path("leaf.pem")])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.err.contains("needs a terminal"), run.err)
        XCTAssertTrue(run.err.contains("For non-interactive use, run 'trustx check'."), run.err)
    }
}
