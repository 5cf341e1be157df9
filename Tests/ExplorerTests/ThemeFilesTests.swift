import Foundation
import TermUI
import XCTest

@testable import Explorer

/// The theme files shipped in themes/ parse, and each sets every role (so a shipped theme never
/// silently falls back to another's colours).
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

    func testAThemeLineNamesItsMistake() {
        XCTAssertThrowsError(try Theme.parse("step.failed = red\nstep.passd = green\n")) { error in
            XCTAssertEqual((error as? Theme.ParseError)?.line, 2)
        }
    }
}
