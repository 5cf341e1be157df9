import Foundation
import TermUI
import XCTest

@testable import Explorer

/// The theme files shipped in themes/ parse, each sets every role (so a shipped theme never
/// silently falls back to another's colours), and each is compiled in byte for byte.
final class ThemeFilesTests: XCTestCase {
    func themesDirectory() throws -> URL {
        // Tests/ExplorerTests/ThemeFilesTests.swift -> the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("themes")
    }

    func testEveryShippedThemeParsesAndSetsEveryRole() throws {
        let files = try FileManager.default.contentsOfDirectory(at: themesDirectory(), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "theme" }
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let theme = try Theme.parse(text, over: Theme(styles: [:]))
            for role in ThemeRole.allCases {
                XCTAssertNotNil(theme.styles[role], "\(file.lastPathComponent) leaves \(role.rawValue) unset")
            }
        }
    }

    func shippedFiles() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(at: themesDirectory(), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "theme" }
            .map { ($0.deletingPathExtension().lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
            .sorted { $0.name < $1.name }
    }

    func testEveryShippedFileIsCompiledInUnchanged() throws {
        let files = try shippedFiles()
        XCTAssertEqual(files.map(\.name), Theme.builtInNames.sorted())
        for file in files {
            let compiled = Theme.builtInTexts.first { $0.name == file.name }?.text
            XCTAssertEqual(
                compiled, file.text,
                "themes/\(file.name).theme differs from its text in BuiltInThemes.swift: copy the file there whole")
        }
    }

    func testTheIssuesThemesAreBuiltInAndSetEveryRole() throws {
        for name in [
            "default", "light", "high-contrast", "high-contrast-light", "colorblind", "mono", "solarized-dark",
        ] {
            let text = try XCTUnwrap(Theme.builtInTexts.first { $0.name == name }?.text, name)
            let theme = try Theme.parse(text, over: Theme(styles: [:]))
            for role in ThemeRole.allCases {
                XCTAssertNotNil(theme.styles[role], "\(name) leaves \(role.rawValue) unset")
            }
            XCTAssertEqual(Theme.builtIn(name), theme, name)
        }
        XCTAssertNil(Theme.builtIn("solarized"))
        XCTAssertNil(Theme.builtIn("themes/mono.theme"))
    }

    func testTheDefaultAndMonoFilesAreTheThemesInCode() throws {
        let empty = Theme(styles: [:])
        XCTAssertEqual(try Theme.parse(BuiltInThemeText.standard, over: empty), .standard)
        XCTAssertEqual(try Theme.parse(BuiltInThemeText.mono, over: empty), .monochrome)
        XCTAssertEqual(Theme.builtIn("standard"), .standard)
        XCTAssertEqual(Theme.builtIn("monochrome"), .monochrome)
    }

    func testMonoUsesAttributesOnly() throws {
        let mono = try XCTUnwrap(Theme.builtIn("mono"))
        for role in ThemeRole.allCases {
            XCTAssertNil(mono[role].foreground, role.rawValue)
            XCTAssertNil(mono[role].background, role.rawValue)
        }
        XCTAssertNotEqual(mono[.stepPassed], mono[.stepFailed])
        XCTAssertNotEqual(mono[.verdictTrusted], mono[.verdictUntrusted])
    }

    /// xterm's 256-colour palette as RGB: the sixteen system colours, the 6x6x6 cube and the
    /// grey ramp.
    static func rgb(_ color: Color) -> (r: Double, g: Double, b: Double) {
        let system: [(Double, Double, Double)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
            (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        let i = color.paletteIndex
        if i < 16 { return system[i] }
        if i < 232 {
            let level: [Double] = [0, 95, 135, 175, 215, 255]
            let c = i - 16
            return (level[c / 36], level[c / 6 % 6], level[c % 6])
        }
        let grey = Double(8 + 10 * (i - 232))
        return (grey, grey, grey)
    }

    /// Red-green colour blindness leaves the blue-yellow opponent channel, (R+G)/2 - B: two
    /// colours such readers tell apart lie on opposite sides of it and far apart.
    func testColorblindResultsNeedNeitherRedAgainstGreenNorColourAtAll() throws {
        let theme = try XCTUnwrap(Theme.builtIn("colorblind"))
        func blueYellow(_ role: ThemeRole) throws -> Double {
            let c = try XCTUnwrap(theme[role].foreground, role.rawValue)
            let (r, g, b) = Self.rgb(c)
            return (r + g) / 2 - b
        }
        for (good, bad) in [(ThemeRole.stepPassed, ThemeRole.stepFailed), (.verdictTrusted, .verdictUntrusted)] {
            let (a, b) = (try blueYellow(good), try blueYellow(bad))
            XCTAssertLessThan(a * b, 0, "\(good.rawValue) and \(bad.rawValue) on one side of blue-yellow")
            XCTAssertGreaterThanOrEqual(abs(a - b), 255, "\(good.rawValue) and \(bad.rawValue) too close")
            // Without any colour (a projector washing it out, a screenshot in grey) the
            // attributes still differ.
            XCTAssertNotEqual(theme[good].modifiers, theme[bad].modifiers, "\(good.rawValue) vs \(bad.rawValue)")
        }
    }

    func testAThemeLineNamesItsMistake() {
        XCTAssertThrowsError(try Theme.parse("step.failed = red\nstep.passd = green\n")) { error in
            XCTAssertEqual((error as? Theme.ParseError)?.line, 2)
        }
    }
}
