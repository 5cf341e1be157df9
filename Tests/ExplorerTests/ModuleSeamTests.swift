import Foundation
import XCTest

/// The explorer's seam (D272): ExplorerState is values and the reducer, so it draws nothing and
/// starts no thread; Explorer holds the views, the effects and the terminal loop. The modules'
/// line limits are ModuleSizeTests', in a target of their own.
final class ModuleSeamTests: XCTestCase {
    /// The Swift files of `module` under Sources/, by name relative to the module, with their text.
    func sources(_ module: String) throws -> [(name: String, text: String)] {
        // Tests/ExplorerTests/ModuleSeamTests.swift -> the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let directory = root.appendingPathComponent("Sources").appendingPathComponent(module)
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw XCTSkip("no sources at \(directory.path)")
        }
        var out: [(name: String, text: String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let name = String(url.path.dropFirst(directory.path.count + 1))
            out.append((name, try String(contentsOf: url, encoding: .utf8)))
        }
        XCTAssertFalse(out.isEmpty, "Sources/\(module) has no Swift files")
        return out.sorted { $0.name < $1.name }
    }

    /// The modules a file imports, whatever the access level or attribute in front.
    func imports(_ text: String) -> Set<String> {
        var out = Set<String>()
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let i = words.firstIndex(of: "import"), i + 1 < words.count else { continue }
            let before = words[..<i]
            guard before.allSatisfy({ ["@testable", "@preconcurrency", "internal", "package", "public"].contains($0) })
            else { continue }
            out.insert(String(words[i + 1]))
        }
        return out
    }

    func testExplorerStateDrawsNothingAndStartsNoThreads() throws {
        // Threads, locks, files and the terminal belong to Explorer's effects and driver.
        let forbidden: Set = ["Synchronization", "Dispatch", "Foundation", "Glibc", "Darwin", "CNcursesw"]
        for file in try sources("ExplorerState") {
            let used = imports(file.text)
            XCTAssertTrue(used.isDisjoint(with: forbidden), "\(file.name) imports \(used.intersection(forbidden))")
            // TermUI's `Rect` is the geometry of the frame's layout, which the hit-test reads.
            if used.contains("TermUI") {
                XCTAssertEqual(file.name, "State/FrameLayout.swift", "\(file.name) imports TermUI")
            }
            for word in ["POSIXThread", "DeadlineRunner", "Mutex", "Buffer", "Terminal"] {
                XCTAssertNil(
                    file.text.range(of: "\\b\(word)\\b", options: .regularExpression), "\(file.name) uses \(word)")
            }
        }
    }
}
