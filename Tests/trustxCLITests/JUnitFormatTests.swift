import CommandLineSpec
import Foundation
import SuiteFixtures
import Testing

/// `check --format junit`, read back by a real XML parser (python3's xml.etree.ElementTree, run as
/// a child process): the counts, the failure's step and codes, and the attributes the Ant JUnit
/// schema requires. The expected codes are the rules' (a certificate for another name fails the
/// hostname step with errSecHostNameMismatch, -67602, and, as the app that sets anchors decides
/// trust in its delegate, URLSession reports NSURLErrorCancelled, -999; a closed port is
/// NSURLErrorCannotConnectToHost, -1004), not our own output.
@Suite(.serialized)
struct JUnitFormatTests {
    let pki: TestPKI

    init() throws { pki = try TestPKI.get() }

    /// Parses `xml` with ElementTree and returns what the tests compare: the suite's attributes,
    /// the attributes of each testcase and of its failure or error, and the names of required
    /// attributes that are missing (the Ant JUnit XSD's).
    func parse(_ xml: Data) throws -> [String: Any] {
        let file = pki.path("junit-\(UUID().uuidString).xml")
        try xml.write(to: URL(fileURLWithPath: file))
        let script = """
            import json, sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            missing = []
            def need(e, names):
                missing.extend(e.tag + '@' + n for n in names if n not in e.attrib)
            need(root, ['name', 'tests', 'failures', 'errors', 'time', 'timestamp', 'hostname'])
            if root.find('properties') is None: missing.append('properties')
            cases = []
            for c in root.findall('testcase'):
                need(c, ['name', 'classname', 'time'])
                one = dict(c.attrib)
                for kind in ('failure', 'error'):
                    f = c.find(kind)
                    if f is not None:
                        need(f, ['type', 'message'])
                        one[kind] = dict(f.attrib, text=f.text or '')
                cases.append(one)
            props = {p.get('name'): p.get('value') for p in root.iter('property')}
            print(json.dumps({'tag': root.tag, 'suite': dict(root.attrib), 'cases': cases,
                              'missing': missing, 'properties': props}))
            """
        let run = try Shell.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file])
        try #require(
            run.status == 0, "ElementTree could not parse it: \(run.err)\n\(String(decoding: xml, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    }

    func leafServer() throws -> OpenSSLServer {
        try OpenSSLServer(["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key")], in: pki.directory)
    }

    @Test func testACertificateForAnotherNameIsOneFailureNamingTheHostnameStepAndBothCodes() throws {
        let server = try leafServer()
        defer { server.stop() }
        let run = try CLI.run([
            "check", "https://other.trustx.test:\(server.port)", "--connect-to", "127.0.0.1", "--anchor",
            pki.path("ca.pem"), "--format", "junit",
        ])
        #expect(run.status == 1, "\(run.err)")
        let doc = try parse(run.stdout)
        #expect(doc["tag"] as? String == "testsuite")
        #expect((doc["missing"] as? [String]) == [])
        let suite = try #require(doc["suite"] as? [String: String])
        #expect(suite["tests"] == "1" && suite["failures"] == "1" && suite["errors"] == "0", "\(suite)")
        let cases = try #require(doc["cases"] as? [[String: Any]])
        #expect(cases.count == 1)
        let one = try #require(cases.first)
        #expect(one["classname"] as? String == "https://other.trustx.test:\(server.port)")
        #expect(one["name"] as? String == "127.0.0.1:\(server.port)")
        let failure = try #require(one["failure"] as? [String: String], "\(one)")
        let message = failure["message"] ?? ""
        #expect(message.contains("hostname"), "\(message)")
        #expect(message.contains("-67602") && message.contains("errSecHostNameMismatch"), "\(message)")
        #expect(message.contains("NSURLErrorCancelled (-999)"), "\(message)")
        #expect(failure["type"] == "errSecHostNameMismatch")
        #expect((failure["text"] ?? "").contains("-67602"))
        let properties = try #require(doc["properties"] as? [String: String])
        // One property per setting, valued with the options that give it: the defaults but --anchor's.
        #expect(properties["trustx.profile"] == "default" && properties["trustx.store"] == "default", "\(properties)")
        #expect(properties["trustx.policy"] == "default", "\(properties)")
        #expect(properties["trustx.evaluationTime"]?.hasSuffix("Z") ?? false, "\(properties)")
    }

    @Test func testSeveralTargetsCountFailuresAndUnreachableErrorsAndEscapeAHostileName() throws {
        let good = try leafServer()
        defer { good.stop() }
        let hostile = try OpenSSLServer(
            ["-cert", pki.path("hostile.pem"), "-key", pki.path("hostile.key")], in: pki.directory)
        defer { hostile.stop() }
        let closed = try leafServer()
        closed.stop()
        let targets = [good.port, hostile.port, closed.port].map { "127.0.0.1:\($0)" }
        let run = try CLI.run(["check"] + targets + ["--anchor", pki.path("ca.pem"), "--format", "junit"])
        // The worst: a server that could not be reached.
        #expect(run.status == 69, "\(run.err)")
        // The hostile subject's escapes and its bidi override never reach the document as such.
        #expect(!run.out.unicodeScalars.contains { [0x1B, 0x9B, 0x202E].contains($0.value) }, "\(run.out)")
        let doc = try parse(run.stdout)
        #expect((doc["missing"] as? [String]) == [])
        let suite = try #require(doc["suite"] as? [String: String])
        #expect(suite["tests"] == "3" && suite["failures"] == "1" && suite["errors"] == "1", "\(suite)")
        let cases = try #require(doc["cases"] as? [[String: Any]])
        #expect(cases.map { $0["classname"] as? String } == targets)
        #expect(cases[0]["failure"] == nil && cases[0]["error"] == nil)
        // A self-signed leaf under --anchor has no path to the anchor: errSecNotTrusted (-67843).
        let failure = try #require(cases[1]["failure"] as? [String: String], "\(cases[1])")
        #expect((failure["message"] ?? "").contains("-67843"), "\(failure)")
        // The hostile name is there, escaped: the escaping was exercised, not avoided.
        #expect((failure["text"] ?? "").contains("evil\\u{1b}[31mred"), "\(failure)")
        let error = try #require(cases[2]["error"] as? [String: String], "\(cases[2])")
        #expect(error["type"] == "NSURLErrorCannotConnectToHost" && (error["message"] ?? "").contains("-1004"))
    }

    @Test func testAConnectToListIsOneTestcasePerAddress() throws {
        let server = try leafServer()
        defer { server.stop() }
        let run = try CLI.run([
            "check", "https://127.0.0.1:\(server.port)", "--connect-to", "127.0.0.1,127.0.0.1", "--anchor",
            pki.path("ca.pem"), "--format", "junit",
        ])
        #expect(run.status == 0, "\(run.err)")
        let doc = try parse(run.stdout)
        let suite = try #require(doc["suite"] as? [String: String])
        #expect(suite["tests"] == "2" && suite["failures"] == "0" && suite["errors"] == "0", "\(suite)")
        let names = (doc["cases"] as? [[String: Any]])?.map { $0["name"] as? String }
        #expect(names == ["127.0.0.1:\(server.port)", "127.0.0.1:\(server.port)"])
    }

    @Test func testAllAddressesIsOneTestcasePerAddressOfTheName() throws {
        let server = try leafServer()
        defer { server.stop() }
        // localhost resolves to 127.0.0.1 (and ::1 on some hosts, which s_server does not listen
        // on: an error); the leaf names only IP 127.0.0.1, so the name fails the hostname step.
        let run = try CLI.run([
            "check", "localhost:\(server.port)", "--all-addresses", "--anchor", pki.path("ca.pem"), "--format", "junit",
        ])
        #expect(run.status == 1 || run.status == 69, "\(run.err)")
        let doc = try parse(run.stdout)
        let suite = try #require(doc["suite"] as? [String: String])
        let cases = try #require(doc["cases"] as? [[String: Any]])
        #expect(suite["tests"] == "\(cases.count)" && suite["failures"] == "1", "\(suite)")
        let v4 = try #require(cases.first { $0["name"] as? String == "127.0.0.1:\(server.port)" }, "\(cases)")
        #expect(v4["classname"] as? String == "localhost:\(server.port)")
        let failure = try #require(v4["failure"] as? [String: String])
        #expect(
            (failure["message"] ?? "").contains("step hostname failed") && (failure["message"] ?? "").contains("-67602")
        )
    }

    @Test func testTheCompletionsOfferJUnitAndTheNewOptions() throws {
        for shell in ["bash", "zsh", "fish"] {
            let run = try CLI.run(["completions", shell])
            // Each script names the options without their dashes in some of its forms (fish's -l).
            for word in ["junit", "quiet", "include-pem", "until-change"] {
                #expect(run.out.contains(word), "\(shell): \(word)")
            }
        }
    }

    @Test func testJUnitUnderWatchIsAUsageError() throws {
        let run = try CLI.run(["check", "127.0.0.1:1", "--watch", "5", "--format", "junit"])
        #expect(run.status == 64, "\(run.err)")
    }
}
