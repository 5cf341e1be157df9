import Foundation
import SuiteFixtures
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `trustx lab` as a process: it serves, and Ctrl-C (SIGINT) or SIGTERM leaves no process,
/// listening port or file behind.
@Suite(.serialized, .onTestThreads) final class LabCommandTests {
    /// Starts `trustx lab --format json`, waits for the JSON description, and returns the process
    /// with the parsed description.
    func startLab(_ extra: [String] = []) throws -> (StartedChild, [String: Any], URL) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "trustx-labcmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let outURL = scratch.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let process = try StartedChild(
            CLI.binary, ["lab", "--format", "json"] + extra, stdout: try FileHandle(forWritingTo: outURL))
        // The description is printed once every server is up.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let data = try? Data(contentsOf: outURL), !data.isEmpty,
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            {
                return (process, json, scratch)
            }
            usleep(10_000)
        }
        process.signal(SIGTERM)
        struct NoDescription: Error {}
        Issue.record("trustx lab printed no description within 20 s")
        throw NoDescription()
    }

    func connects(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    func assertStopsCleanly(with signal: Int32) throws {
        let (process, json, scratch) = try startLab(["--scenario", "good", "--scenario", "expired"])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let scenarios = try #require(json["scenarios"] as? [[String: Any]])
        let ports = scenarios.compactMap { $0["port"] as? Int }
        #expect(ports.count == 2)
        let anchors = try #require(json["anchors"] as? [String: String])
        let directory = try #require(anchors["library-test-ca"]).split(separator: "/").dropLast().joined(
            separator: "/")
        for port in ports { #expect(connects(port), "port \(port) should be served") }
        #expect(FileManager.default.fileExists(atPath: "/" + directory))

        process.signal(signal)
        process.waitForExit()
        #expect(process.exited)
        #expect(process.status == 0)
        for port in ports { #expect(!connects(port), "port \(port) still accepts connections") }
        #expect(!(FileManager.default.fileExists(atPath: "/" + directory)), "the lab's files were left behind")
    }

    @Test func testCtrlCLeavesNoProcessPortOrFileBehind() throws {
        try assertStopsCleanly(with: SIGINT)
    }

    @Test func testSIGTERMLeavesNoProcessPortOrFileBehind() throws {
        try assertStopsCleanly(with: SIGTERM)
    }
}
