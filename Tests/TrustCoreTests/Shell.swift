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

    /// Runs `command` with `/bin/sh -c` (SuiteFixtures' runner, which drains both outputs at once).
    static func run(_ command: String) throws -> Result {
        let r = try ProcessRunner.shell(command)
        return Result(status: r.status, stdout: Array(r.stdout), stderr: r.err)
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
