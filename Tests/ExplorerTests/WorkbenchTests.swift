import Explorer
import ExplorerState
import Foundation
import TrustCore
import TrustSupport
import TrustX509
import XCTest

/// The explorer as a workbench: actions on the selected certificate, typed values with a preview,
/// undo, and a state written back as a command line. Real lab servers, real evaluations.
final class WorkbenchTests: XCTestCase {
    static let scenarios = ["good", "wrong-host", "untrusted-root", "self-signed", "tls12-only"]

    /// A scratch directory as the working directory, for the files the explorer writes.
    var directory = ""
    var previousDirectory = ""

    override func setUp() {
        previousDirectory = FileManager.default.currentDirectoryPath
        directory = NSTemporaryDirectory() + "trustx-workbench-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.changeCurrentDirectoryPath(directory)
    }

    override func tearDown() {
        _ = FileManager.default.changeCurrentDirectoryPath(previousDirectory)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Selects the row of `name` in the chain pane's "as sent" list.
    func selectSent(_ s: Session, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        s.press(.char("2"))
        guard let row = s.state.chainRows.lastIndex(where: { $0.certificate.displayName == name }) else {
            return XCTFail(
                "no certificate \(name) in \(s.state.chainRows.map(\.certificate.displayName))", file: file, line: line)
        }
        s.press(.char("g"))
        while s.state.selectedCertificate < row { s.press(.char("j")) }
    }

    func testAnyPresentedCertificateBecomesAnAnchorAndStopsBeingOne() {
        let s = Session(scenarios: Self.scenarios)
        s.select("untrusted-root")
        XCTAssertEqual(s.verdict?.osstatus, -67843)
        s.press(.char("2"), .char("G"))
        XCTAssertEqual(s.state.selectedChainRow?.section, .sent)
        XCTAssertEqual(s.state.selectedChainRow?.certificate.displayName, "Untrusted Root CA")
        s.press(.char("a"))
        XCTAssertEqual(s.verdict?.trusted, true, "the presented root, made an anchor (SecTrustSetAnchorCertificates)")
        XCTAssertEqual(s.state.change?.cause, "anchor + Untrusted Root CA")
        XCTAssertTrue(s.state.change!.text.hasPrefix("verdict: -67843, URLError -999 -> trusted"), s.state.change!.text)
        XCTAssertEqual(s.state.selectedChainRow?.certificate.displayName, "Untrusted Root CA", "the selection stays")
        s.press(.char("a"))
        XCTAssertEqual(s.verdict?.osstatus, -67843)

        // An intermediate is an anchor too: processing stops there (Apple accepts it).
        selectSent(s, "Untrusted Intermediate CA")
        s.press(.char("a"))
        XCTAssertEqual(s.verdict?.trusted, true)
        XCTAssertEqual(s.state.evaluation?.path.certificates.count, 2)
    }

    func testTheSelfSignedLeafItselfCanBeTheAnchor() {
        let s = Session(scenarios: Self.scenarios)
        s.select("self-signed")
        XCTAssertEqual(s.verdict?.osstatus, -67843)
        s.press(.char("2"), .char("g"), .char("a"))
        XCTAssertEqual(s.verdict?.trusted, true)
    }

    func testRemovingTheScenariosOwnAnchorLeavesTheSystemRoots() {
        let s = Session(scenarios: Self.scenarios)
        XCTAssertEqual(s.verdict?.trusted, true)
        selectSent(s, "Library Test CA")
        s.press(.char("a"))
        XCTAssertTrue(s.state.effectiveAnchors.isEmpty)
        XCTAssertEqual(s.verdict?.trusted, false)
        XCTAssertEqual(s.verdict?.urlError, -1202, "no custom anchor, no pin: URLSession's default handling")
        s.press(.char("A"))
        XCTAssertFalse(s.state.toggles.anchorsOnly)
        s.press(.char("0"))
        XCTAssertEqual(s.state.toggles, Toggles())
        XCTAssertEqual(s.verdict?.trusted, true)
    }

    func testPinningTheSelectedKeyAndATypedPin() throws {
        let s = Session(scenarios: Self.scenarios)
        s.press(.char("2"), .char("g"), .char("P"))
        let leaf = try XCTUnwrap(s.state.evaluation?.path.certificates.first)
        XCTAssertEqual(s.state.toggles.pins, [leaf.spkiSHA256])
        XCTAssertEqual(s.verdict?.trusted, true)
        XCTAssertEqual(s.status(.pin, 0), .passed)

        // A pin typed wrong is refused at Enter and changes nothing.
        s.prompt("N", "sha256//not-base64")
        XCTAssertNotNil(s.state.prompt, "the prompt stays open on invalid input")
        XCTAssertNotNil(s.state.message)
        s.press(.escape)
        XCTAssertEqual(s.state.toggles.pins.count, 1)

        // A second pin that matches nothing: pins are ORed, so still trusted.
        let zero = "sha256//" + Base64.encode([UInt8](repeating: 0, count: 32))
        s.prompt("N", zero)
        XCTAssertEqual(s.state.toggles.pins.count, 2)
        XCTAssertEqual(s.verdict?.trusted, true)
        // Unpin the leaf: only the wrong pin remains, the delegate cancels.
        s.press(.char("2"), .char("g"), .char("P"))
        XCTAssertEqual(s.verdict?.trusted, false)
        XCTAssertEqual(s.verdict?.osstatus, 0)
        XCTAssertEqual(s.verdict?.urlError, -999)
    }

    func testTheTimePromptPreviewsTheVerdictBeforeEnter() throws {
        let s = Session(scenarios: Self.scenarios)
        s.press(.char("t"))
        s.type("2040-01-01")
        XCTAssertEqual(s.state.prompt?.preview, .rejected(osstatus: -67818, urlError: -999))
        XCTAssertNil(s.state.toggles.time, "nothing changes before Enter")
        XCTAssertEqual(s.verdict?.trusted, true)
        s.press(.enter)
        XCTAssertEqual(s.state.toggles.time, Timestamp(year: 2040, month: 1, day: 1))
        XCTAssertEqual(s.verdict?.osstatus, -67818)

        s.press(.char("t"))
        s.type("not a time")
        XCTAssertNotNil(s.state.problem(with: s.state.prompt!))
        XCTAssertNil(s.state.prompt?.preview)
        s.press(.escape)
        XCTAssertNil(s.state.prompt)

        s.press(.char("T"))
        XCTAssertNil(s.state.toggles.time)
        XCTAssertEqual(s.verdict?.trusted, true)

        // Up recalls the earlier entry.
        s.press(.char("t"), .up)
        XCTAssertEqual(s.state.prompt?.text, "2040-01-01")
        s.press(.escape)
    }

    func testValidityBoundariesAndDaySteps() throws {
        let s = Session(scenarios: Self.scenarios)
        let leaf = try XCTUnwrap(s.state.evaluation?.path.certificates.first)
        s.press(.char(">"))
        XCTAssertEqual(s.state.evaluationTime, s.state.now.adding(seconds: 86_400))
        s.press(.char("<"), .char("<"))
        XCTAssertEqual(s.state.evaluationTime, s.state.now.adding(seconds: -86_400))
        s.press(.char("T"))
        // The next boundary of the lab's 397-day leaf under a longer-lived CA: one second after
        // its notAfter (notAfter itself is inside the validity period, RFC 5280 4.1.2.5).
        s.press(.char("]"))
        XCTAssertEqual(s.state.evaluationTime, leaf.notAfter.adding(seconds: 1))
        XCTAssertEqual(s.verdict?.osstatus, -67818)
        XCTAssertTrue(s.state.change!.cause.contains("after [0] notAfter"), s.state.change!.cause)
        s.press(.char("<"))
        XCTAssertEqual(s.verdict?.trusted, true, "a day earlier the leaf is valid again")
        s.press(.char("["), .char("["))
        XCTAssertLessThanOrEqual(s.state.evaluationTime, leaf.notBefore)
    }

    func testTheHostPromptCompletesFromTheLeafAndEmptyMeansNoHost() {
        let s = Session(scenarios: Self.scenarios)
        s.select("wrong-host")
        XCTAssertEqual(s.verdict?.osstatus, -67602)
        s.press(.char("h"))
        XCTAssertEqual(s.state.prompt?.text, "localhost", "the current host, offered for editing")
        s.press(.backspace)
        s.press(.tab)
        XCTAssertEqual(s.state.prompt?.text, "127.0.0.1", "the leaf's only SAN is the iPAddress 127.0.0.1")
        XCTAssertEqual(s.state.prompt?.preview, .trusted)
        s.press(.enter)
        XCTAssertEqual(s.state.toggles.host, .typed("127.0.0.1"))
        XCTAssertEqual(s.verdict?.trusted, true)
        s.press(.char("h"), .backspace, .enter)
        XCTAssertEqual(s.state.toggles.policy, .sslWithoutHost)
        XCTAssertEqual(s.state.settings.policy, .ssl(host: nil))
        s.press(.char("u"))
        XCTAssertEqual(s.state.toggles.policy, .sslWithHost)
        XCTAssertEqual(s.state.toggles.host, .typed("127.0.0.1"))
        s.press(.char("U"))
        XCTAssertEqual(s.state.toggles.policy, .sslWithoutHost)
        XCTAssertTrue(s.state.change!.cause.hasPrefix("redo "), s.state.change!.cause)
    }

    func testTheCopiedCommandNamesEverySettingAndWritesSessionAnchors() throws {
        let s = Session(scenarios: Self.scenarios)
        s.select("untrusted-root")
        s.press(.char("2"), .char("G"), .char("a"))
        s.press(.char("g"), .char("P"))
        s.prompt("t", "2040-01-01")
        s.press(.char("p"), .char("p"))
        s.press(.char("y"))
        let command = try XCTUnwrap(s.copied.last)
        let leaf = try XCTUnwrap(s.state.evaluation?.path.certificates.first)
        let url = try XCTUnwrap(s.state.target?.location)
        XCTAssertTrue(command.hasPrefix("trustx check \(url) "), command)
        XCTAssertTrue(command.contains("--pin sha256//\(leaf.spkiPin)"), command)
        XCTAssertTrue(command.contains("--at 2040-01-01T00:00:00Z"), command)
        XCTAssertTrue(command.contains("--policy basic"), command)
        XCTAssertNotNil(s.state.overlay)
        XCTAssertEqual(s.state.overlay?.paragraphs.first, command, "shown in full")
        // The presented root exists only in the session: it is written beside the command.
        let anchorFile = try XCTUnwrap(
            command.split(separator: " ").map(String.init).first { $0.hasPrefix("trustx-anchor-untrusted-root-ca-") })
        let written = try CertificateLoader.load(path: anchorFile)
        XCTAssertEqual(written.first?.displayName, "Untrusted Root CA")
        // The scenario's own anchor is named by its file in the lab's directory.
        XCTAssertTrue(command.contains("library-test-ca.pem"), command)
    }

    func testWritingAPEMNeverReplacesAFileAndAnchorsComeBackFromIt() throws {
        let s = Session(scenarios: Self.scenarios)
        s.select("untrusted-root")
        s.press(.char("2"), .char("G"), .char("w"))
        XCTAssertEqual(s.state.prompt?.text, "untrusted-root-ca.pem")
        s.press(.enter)
        XCTAssertEqual(s.state.message, "wrote Untrusted Root CA to untrusted-root-ca.pem")
        let pem = try String(contentsOfFile: "untrusted-root-ca.pem", encoding: .utf8)
        XCTAssertTrue(pem.hasPrefix("-----BEGIN CERTIFICATE-----"), pem)
        s.press(.char("w"), .enter)
        XCTAssertTrue(s.state.message?.hasPrefix("cannot write untrusted-root-ca.pem") == true, s.state.message ?? "")

        // F with Tab completion reads it back as an anchor.
        s.press(.char("F"))
        s.type("untrusted-r")
        s.press(.tab)
        XCTAssertEqual(s.state.prompt?.text, "untrusted-root-ca.pem")
        s.press(.enter)
        XCTAssertEqual(s.verdict?.trusted, true)
        XCTAssertEqual(s.state.toggles.addedAnchors.first?.file, "untrusted-root-ca.pem")
        s.press(.char("y"))
        XCTAssertTrue(s.copied.last!.contains("--anchor untrusted-root-ca.pem"), s.copied.last!)
    }

    func testTheReportExportsInTheFormatItsNameSays() throws {
        let s = Session(scenarios: Self.scenarios)
        s.prompt("x", "report.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "report.json")))
        let verdict = (json as? [String: Any])?["verdict"] as? [String: Any]
        XCTAssertEqual(verdict?["trusted"] as? Bool, true)
        s.prompt("x", "report.md")
        XCTAssertTrue(try String(contentsOfFile: "report.md", encoding: .utf8).contains("|"))
        s.prompt("x", "report.txt")
        XCTAssertTrue(try String(contentsOfFile: "report.txt", encoding: .utf8).hasPrefix("✓ Trusted"))
    }

    func testANewTargetJoinsTheListAndIsEvaluatedWithTheSessionsSettings() throws {
        let s = Session(scenarios: Self.scenarios)
        let good = try XCTUnwrap(s.state.target?.location)
        let before = s.state.targets.count
        s.press(.char("c"))
        s.type("no such::target")
        XCTAssertNotNil(s.state.problem(with: s.state.prompt!))
        s.press(.escape)
        s.prompt("c", good)
        XCTAssertEqual(s.state.targets.count, before + 1)
        XCTAssertEqual(s.state.selectedTarget, before)
        XCTAssertEqual(s.state.focus, .chain)
        // Not a scenario: no anchor of its own, no system store in this session, and the
        // server sends its leaf only: the issuer is missing.
        XCTAssertEqual(s.verdict?.osstatus, -25318)
    }

    func testConnectionKeysSayWhyTheyDoNothingForFiles() throws {
        let s = Session(scenarios: ["good"])
        let chain = try XCTUnwrap(s.state.connection?.chain)
        let files = ExplorerTarget(
            name: "files", location: "chain.pem", host: "", source: .files(chain, paths: ["chain.pem"]))
        let f = Session(targets: [files])
        let effects = f.log.count
        for key: Character in ["v", "f", "r", "E"] {
            f.press(.char(key))
            XCTAssertTrue(f.state.message?.contains("this target is files") == true, "\(key): \(f.state.message ?? "")")
        }
        XCTAssertEqual(f.log.count, effects, "no connection was attempted")
        let v = Keymap.standard.binding(for: .cycleTLSMinimum)!
        XCTAssertFalse(v.isEnabled(in: f.state))
        XCTAssertTrue(v.help(in: f.state).hasSuffix("Not for files: there is nothing to connect to."))
        XCTAssertFalse(Keymap.standard.binding(for: .quit)!.help(in: f.state).contains("lab"))
        XCTAssertTrue(Keymap.standard.binding(for: .quit)!.help(in: s.state).contains("the lab stops with it"))
    }

    func testTheTargetMarksFollowTheCurrentSettings() {
        let s = Session(scenarios: Self.scenarios)
        XCTAssertEqual(s.state.marks[0]?.outcome, .trusted)
        s.select("wrong-host")
        XCTAssertEqual(s.state.marks[1]?.outcome, .rejected(osstatus: -67602, urlError: -999))
        s.press(.char("p"))
        XCTAssertEqual(s.state.marks[1]?.outcome, .trusted)
        XCTAssertEqual(s.state.marks[1]?.toggles, s.state.toggles)
        XCTAssertNotEqual(s.state.marks[0]?.toggles, s.state.toggles, "good was evaluated under other settings")
        let lines = ExplorerView.lines(s.state, width: 160, height: 45)
        XCTAssertTrue(
            lines.contains { $0.contains("• good") }, "a stale mark is a dot:\n" + lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.contains("✓ wrong-host") })
    }

    func testAnAddressListReplacesTheTargetAndTheOddNodeStandsOut() throws {
        let s = Session(scenarios: ["good"])
        let target = try XCTUnwrap(s.state.target)
        s.press(.char("E"))
        XCTAssertEqual(s.state.message, "127.0.0.1 is one address already")
        // A name that resolves to two loopback addresses, only one of which has the server.
        s.send(.resolved(target: 0, .success(["127.0.0.1", "127.0.0.2"])))
        XCTAssertEqual(s.state.targets.map(\.name), ["\(target.name) @ 127.0.0.1", "\(target.name) @ 127.0.0.2"])
        XCTAssertEqual(s.verdict?.trusted, true)
        s.press(.char("1"), .char("j"))
        XCTAssertEqual(
            s.state.connection?.report.target.connectTo, "127.0.0.2:\(s.state.connection!.report.target.port)")
        XCTAssertNil(s.state.evaluation, "nothing listens there: no chain")
    }

    /// `R` fetches revocation information once per chain (the lab's certificates name no OCSP
    /// responder and no CRL, so nothing comes back and Apple's soft fail keeps the verdict), and
    /// every later evaluation of that chain uses what came back.
    func testRevocationFetchingHappensOncePerChainAndIsNamedInTheCommand() throws {
        let s = Session(scenarios: Self.scenarios)
        s.select("good")
        XCTAssertEqual(s.state.evaluation?.settings.revocationFetched, false)
        func fetches() -> Int {
            s.log.filter { if case .fetchRevocation = $0 { true } else { false } }.count
        }
        s.press(.char("R"))
        XCTAssertEqual(fetches(), 1)
        XCTAssertEqual(s.state.evaluation?.settings.revocationFetched, true, "evaluated again with what came back")
        let revocation = try XCTUnwrap(s.state.evaluation?.steps.first { $0.id == .revocation })
        XCTAssertEqual(revocation.status, .skipped("no revocation information could be fetched"))
        XCTAssertEqual(s.verdict?.trusted, true, "no revocation information: Apple's soft fail")
        s.press(.char("p"))
        XCTAssertEqual(fetches(), 1, "a toggle re-evaluates the same chain without fetching again")
        s.press(.char("y"))
        XCTAssertTrue(s.copied.last?.contains(" --revocation") == true, s.copied.last ?? "")
        s.press(.escape)
        s.press(.char("R"))
        XCTAssertEqual(s.state.evaluation?.settings.revocationFetched, false)
        s.press(.char("R"))
        s.select("wrong-host")
        XCTAssertEqual(fetches(), 1, "wrong-host serves good's chain: what was fetched for it serves")
        s.select("untrusted-root")
        XCTAssertGreaterThan(fetches(), 1, "another chain: fetched for it")
        XCTAssertEqual(s.state.evaluation?.settings.revocationFetched, true)
    }

    /// `V` requires a positive revocation answer: the lab's chains come with none, so every
    /// certificate below the anchor fails with RevocationResponseRequired (-67635), and the
    /// copied command carries the flag.
    func testRequiringRevocationFailsAChainWithoutAnswersAndIsNamedInTheCommand() throws {
        let s = Session(scenarios: Self.scenarios)
        s.select("good")
        XCTAssertEqual(s.verdict?.trusted, true)
        s.press(.char("V"))
        XCTAssertEqual(s.verdict?.trusted, false)
        XCTAssertEqual(s.verdict?.osstatus, -67635)
        let failed = s.state.evaluation?.steps.filter { $0.id == .revocation && $0.status == .failed } ?? []
        XCTAssertEqual(failed.count, (s.state.evaluation?.path.certificates.count ?? 0) - 1)
        s.press(.char("y"))
        XCTAssertTrue(s.copied.last?.contains(" --require-revocation") == true, s.copied.last ?? "")
        s.press(.escape, .char("V"))
        XCTAssertEqual(s.verdict?.trusted, true)
    }

    func testTheAnchorClassToggles() {
        let s = Session(scenarios: Self.scenarios + ["long-validity"])
        s.select("long-validity")
        XCTAssertEqual(s.verdict?.osstatus, -67901)
        s.press(.char("C"))
        // A 900-day leaf under a device-trusted CA: only a leaf that is itself the device-trusted
        // anchor skips the validity maximum (trustd's ValidityPeriodMaximums asks about the leaf).
        XCTAssertEqual(s.verdict?.osstatus, -67901)
        XCTAssertEqual(s.state.evaluation?.path.anchorClass, .device)
        s.press(.char("2"), .char("g"), .char("a"))
        XCTAssertEqual(s.verdict?.trusted, true, "the leaf itself trusted on the device skips the 825-day rule")
        s.press(.char("C"))
        XCTAssertEqual(s.verdict?.osstatus, -67901, "the same leaf set by the app as its anchor")
        s.press(.char("C"))
        XCTAssertEqual(s.state.toggles.anchorClass, .device)
        s.press(.char("y"))
        XCTAssertTrue(s.copied.last!.contains("--anchor-class device"), s.copied.last!)
        s.press(.escape)
        XCTAssertNil(s.state.overlay)
        s.press(.char("u"))
        XCTAssertEqual(s.state.toggles.anchorClass, .app)
    }
}

/// What `trustx explore` takes from check's options reaches the connection.
final class ExploreOptionsTests: XCTestCase {
    func testMTLSRequiredIsCompletedWithAClientIdentity() throws {
        let lab = Session(scenarios: ["mtls-required"])
        XCTAssertEqual(lab.state.connection?.failure?.urlError, -1206, "no identity: the handshake fails")
        guard case .running(let directory) = lab.state.lab else { return XCTFail("lab: \(lab.state.lab)") }
        let p12 = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: directory).first { $0.hasSuffix(".p12") })
        var target = try XCTUnwrap(lab.state.target)
        guard case .server(let t, var options) = target.source else { return XCTFail("not a server") }
        options.clientIdentity = .pkcs12(path: directory + "/" + p12, password: "trustx-lab")
        target.source = .server(t, options)
        target.scenario = nil
        let s = Session(targets: [target])
        XCTAssertNil(s.state.connection?.failure)
        XCTAssertEqual(s.verdict?.trusted, true)
        XCTAssertEqual(DetailContent.title(s.state).hasPrefix("Step "), true, "one target: the steps have focus")
        s.press(.char("1"))
        XCTAssertEqual(DetailContent.title(s.state), "Target \(target.name)", "no lab wording outside the lab")
        s.press(.char("y"))
        XCTAssertTrue(s.copied.last!.contains("--client-cert \(directory)/\(p12)"), s.copied.last!)
    }

    func testTheCopiedCommandOfFilesNamesThem() throws {
        let lab = Session(scenarios: ["good"])
        let chain = try XCTUnwrap(lab.state.connection?.chain)
        let files = ExplorerTarget(
            name: "files", location: "a.pem, b.pem", host: "", source: .files(chain, paths: ["a.pem", "b b.pem"]))
        let s = Session(targets: [files])
        s.prompt("h", "127.0.0.1")
        s.press(.char("y"))
        XCTAssertEqual(s.copied.last, "trustx check --chain a.pem 'b b.pem' --host 127.0.0.1")
    }
}
