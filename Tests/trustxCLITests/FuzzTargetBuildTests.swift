import Foundation
import Testing

/// The fuzz target is compiled with -DFUZZING only, so a normal build never sees its code: CI
/// builds it with the very command docs/fuzzing.md gives (and runs it briefly), which is how a
/// target that stopped compiling, or a page that stopped working, is noticed.
@Suite struct FuzzTargetBuildTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A shell command's words, its continuation lines joined.
    static func words(_ text: some StringProtocol) -> [String] {
        text.replacingOccurrences(of: "\\\n", with: " ").split(whereSeparator: { $0 == " " || $0 == "\n" })
            .map(String.init)
    }

    @Test func testCIBuildsTheFuzzTargetWithTheCommandDocsFuzzingGives() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/fuzzing.md"), encoding: .utf8)
        let ci = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let block = try #require(page.components(separatedBy: "```sh\n").dropFirst().first)
        // The page's first command: its lines up to the first that does not continue.
        var command = ""
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            command += line + "\n"
            if !line.hasSuffix("\\") { break }
        }
        let build = Self.words(command)
        #expect(build.starts(with: ["swift", "build"]) && build.contains("-DFUZZING"), "\(command)")
        let ciWords = Self.words(ci)
        let found = ciWords.indices.contains { ciWords[$0...].starts(with: build) }
        #expect(found, ".ci/run does not run docs/fuzzing.md's build command: \(build.joined(separator: " "))")
        // And runs what it built.
        #expect(ci.contains(".build-fuzz/debug/trustx-fuzz"))
    }
}
