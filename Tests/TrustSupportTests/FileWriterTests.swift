import Foundation
import Testing
import TrustSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The one writer: nothing planted at the name is written through, an existing file is kept or
/// replaced as asked, and no temporary file is left behind either way.
@Suite struct FileWriterTests {
    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "trustx-writer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    @Test func testAPlantedLinkIsReplacedOrRefusedNeverWrittenThrough() throws {
        let victim = dir + "/victim"
        try "kept\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let link = dir + "/out"
        #expect(symlink(victim, link) == 0)
        #expect(throws: FileWriteError.exists(path: link)) { try FileWriter.write("new", to: link, existing: .keep) }
        #expect(contents(victim) == "kept\n")
        try FileWriter.write("new", to: link, existing: .replace)
        #expect(contents(victim) == "kept\n")
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(contents(link) == "new")
        #expect(names() == ["out", "victim"])
    }

    @Test func testADanglingLinkCountsAsAnExistingFile() throws {
        let link = dir + "/out"
        #expect(symlink(dir + "/nowhere", link) == 0)
        #expect(throws: FileWriteError.exists(path: link)) { try FileWriter.write("x", to: link, existing: .keep) }
        #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere"))
    }

    @Test func testANewFileGetsItsModeAndAMissingFolderIsAnError() throws {
        try FileWriter.write("secret", to: dir + "/key", mode: 0o600, existing: .keep)
        var info = stat()
        #expect(stat(dir + "/key", &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(throws: FileWriteError.system(path: dir + "/no/such", errno: ENOENT)) {
            try FileWriter.write("x", to: dir + "/no/such", existing: .keep)
        }
        #expect(names() == ["key"])
    }
}
