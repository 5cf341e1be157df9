import Foundation
import SuiteFixtures
import XCTest

@testable import TrustCore
@testable import TrustX509

/// Runs the openssl CLI, which supplies the expected values some tests compare against.
enum Shell {
    struct Result {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `command` with `/bin/sh -c`.
    static func run(_ command: String) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting so a large output cannot fill the pipe and block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitForExit()
        return Result(
            status: process.terminationStatus, stdout: Array(stdout),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Runs `command` and returns its standard output, failing the test on a non-zero exit.
    static func output(_ command: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try run(command)
        XCTAssertEqual(r.status, 0, "\(command)\n\(r.stderr)", file: file, line: line)
        return r.text
    }
}

/// A temporary directory removed when the test ends.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `bytes` to `name` in the directory and returns the full path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Writes `text` to `name` and returns the full path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

    /// Writes certificates as a PEM bundle and returns the full path.
    @discardableResult
    func writePEM(_ name: String, _ certificates: [Certificate]) throws -> String {
        try write(name, certificates.map { PEM.encode($0.der) }.joined())
    }

    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
    }
}
