import ExplorerState
import Foundation
import TrustCore
import XCTest

/// App Transport Security and NSPinnedDomains in the explorer: `i` applies ATS (its defaults until
/// `L` loads an Info.plist), `I` switches the platform, and the ATS steps join the others.
/// Real lab servers reached by their DNS names, real handshakes with ATS's offer, real Info.plists
/// the lab wrote.
final class ATSExplorerTests: XCTestCase {
    /// The Info.plist the lab wrote for `scenario`'s ATS case `label`.
    func plist(_ s: Session, _ scenario: String, _ label: String, file: StaticString = #filePath, line: UInt = #line)
        -> String
    {
        guard case .running(let directory) = s.state.lab else {
            XCTFail("the lab is not running", file: file, line: line)
            return ""
        }
        let path = "\(directory)/\(scenario).\(label).plist"
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), path, file: file, line: line)
        return path
    }

    func testATSRefusesATLS11ServerAndTheExceptionFromAnInfoPlistLetsItIn() throws {
        let s = Session(scenarios: ["good", "tls11-only"])
        s.select("tls11-only")
        XCTAssertNil(s.anyStatus(.atsTLSVersion), "no ATS step while ATS is off")
        let connectsBefore = s.log.filter(\.isConnect).count
        s.press(.char("i"))
        XCTAssertTrue(s.state.toggles.ats.enabled)
        XCTAssertNil(s.state.toggles.ats.source, "ATS's defaults until an Info.plist is loaded")
        XCTAssertGreaterThan(s.log.filter(\.isConnect).count, connectsBefore, "ATS changes the offer: reconnects")
        // ATS's floor is TLS 1.2; the server speaks 1.1: the handshake fails (-1200), and the
        // observing handshake shows the chain and what the server does.
        XCTAssertEqual(s.verdict?.trusted, false)
        XCTAssertEqual(s.verdict?.urlError, -1200)
        XCTAssertEqual(s.anyStatus(.atsTLSVersion), .failed)
        XCTAssertFalse(s.state.chainRows.isEmpty, "the chain is shown although ATS refused the handshake")

        s.prompt("L", plist(s, "tls11-only", "tls-1.1"))
        XCTAssertEqual(s.state.toggles.ats.source?.hasSuffix("tls11-only.tls-1.1.plist"), true)
        XCTAssertEqual(s.verdict?.trusted, true, "NSExceptionMinimumTLSVersion TLSv1.1 for this host")
        XCTAssertEqual(s.anyStatus(.atsTLSVersion), .passed)

        // The misspelt value is ignored, as Apple ignores it.
        s.prompt("L", plist(s, "tls11-only", "tls-1.1-misspelt"))
        XCTAssertEqual(s.verdict?.urlError, -1200)
        XCTAssertEqual(s.anyStatus(.atsTLSVersion), .failed)
        // The Detail pane of the ATS step says what ATS requires of this host and what the plist got wrong.
        s.press(.char("3"))
        while s.state.selectedStepValue?.id != .atsTLSVersion { s.press(.char("j")) }
        let detail = DetailContent.lines(s.state).compactMap { line -> String? in
            if case .field(let label) = line.kind { return label + ": " + line.text }
            return nil
        }
        XCTAssertTrue(detail.contains("Minimum: TLS 1.2"), "\(detail)")
        XCTAssertTrue(detail.contains { $0.hasPrefix("Plist: ") && $0.contains("TLSV1.1") }, "\(detail)")

        s.press(.char("u"))
        XCTAssertEqual(s.verdict?.trusted, true, "undo brings the TLSv1.1 exception back")
        s.press(.char("y"))
        let command = try XCTUnwrap(s.copied.last)
        XCTAssertTrue(command.contains("--ats-plist "), command)
        XCTAssertTrue(command.contains("tls11-only.tls-1.1.plist"), command)
        XCTAssertTrue(command.contains("--connect-to 127.0.0.1:"), command)
        s.press(.escape)

        s.press(.char("i"))
        XCTAssertFalse(s.state.toggles.ats.enabled)
        XCTAssertNil(s.anyStatus(.atsTLSVersion), "ATS off: its steps leave")
        // URLSession's own floor is TLS 1.2 too: without ATS no handshake, no chain.
        XCTAssertNil(s.state.evaluation)
        XCTAssertEqual(s.state.change?.text.contains("no connection, URLError -1200"), true, s.state.change?.text ?? "")
    }

    func testNoForwardSecrecyIsRefusedUnderATSOnly() {
        let s = Session(scenarios: ["no-forward-secrecy"])
        XCTAssertEqual(s.verdict?.trusted, true, "without ATS, RSA key exchange is accepted")
        s.press(.char("i"))
        XCTAssertEqual(s.verdict?.urlError, -1200)
        XCTAssertEqual(s.anyStatus(.atsCipher) == .failed || s.anyStatus(.atsForwardSecrecy) == .failed, true)
        s.prompt("L", plist(s, "no-forward-secrecy", "forward-secrecy-off"))
        XCTAssertEqual(s.verdict?.trusted, true)
        XCTAssertNotEqual(s.anyStatus(.atsForwardSecrecy), .failed, "not required for this host")
    }

    func testPinnedDomainsAfterRotationAndWhoDecidesTheError() {
        let s = Session(scenarios: ["pin-rotated"])
        XCTAssertEqual(s.verdict?.trusted, true)
        s.prompt("L", plist(s, "pin-rotated", "old-leaf-pin"))
        XCTAssertEqual(s.anyStatus(.pinnedDomains), .failed)
        XCTAssertEqual(s.verdict?.trusted, false)
        // The lab's CA is an app-set anchor here: the delegate's evaluation fails on the pins
        // and it cancels.
        XCTAssertEqual(s.verdict?.urlError, -999)
        s.press(.char("C"))
        XCTAssertEqual(s.state.toggles.anchorClass, .device)
        XCTAssertEqual(s.verdict?.urlError, -1200, "no delegate: URLSession's own failure")
        s.prompt("L", plist(s, "pin-rotated", "ca-pin"))
        XCTAssertEqual(s.verdict?.trusted, true, "the CA identity survives the leaf's rotation")
        XCTAssertEqual(s.anyStatus(.pinnedDomains), .passed)
    }

    func testThePlatformSwitchAndItsWordsInTheCommand() throws {
        let s = Session(scenarios: ["good"])
        // The 26 SDK is the default; I turns to iOS 17, then iOS 16, then back.
        XCTAssertEqual(s.state.toggles.ats.platform, .ios26)
        s.press(.char("I"))
        XCTAssertEqual(s.state.toggles.ats.platform, .ios17)
        s.press(.char("I"))
        XCTAssertEqual(s.state.toggles.ats.platform, .ios16)
        XCTAssertFalse(s.state.toggles.ats.enabled, "switching the platform does not apply ATS")
        s.press(.char("i"))
        XCTAssertEqual(s.state.settings.ats?.platform, .ios16)
        s.press(.char("y"))
        let command = try XCTUnwrap(s.copied.last)
        XCTAssertTrue(command.contains(" --ats"), command)
        XCTAssertTrue(command.contains("--platform ios16"), command)
        XCTAssertFalse(command.contains("--ats-plist"), command)
    }

    func testAnUnreadableInfoPlistSaysWhyAndChangesNothing() throws {
        let s = Session(scenarios: ["good"])
        let path = NSTemporaryDirectory() + "trustx-not-a-plist-\(UUID().uuidString.prefix(8)).plist"
        try Data("this is not a property list".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = s.state.toggles
        s.prompt("L", path)
        XCTAssertEqual(s.state.toggles, before)
        XCTAssertEqual(s.state.message?.contains(path), true, s.state.message ?? "")
        s.prompt("L", "/nonexistent/Info.plist")
        XCTAssertEqual(s.state.toggles, before)
        XCTAssertNotNil(s.state.message)
    }

    /// `X` exports what the screen shows: the pinned CA key as an NSPinnedDomains Info.plist that
    /// Foundation reads and `L` loads back with the same verdict, a Swift delegate that pins after
    /// evaluation, and a curl command with the pin.
    func testExportedCodeCarriesThePinsAndThePlistLoadsBack() throws {
        let previous = FileManager.default.currentDirectoryPath
        let directory = NSTemporaryDirectory() + "trustx-ats-export-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(directory))
        defer {
            _ = FileManager.default.changeCurrentDirectoryPath(previous)
            try? FileManager.default.removeItem(atPath: directory)
        }
        let s = Session(scenarios: ["pin-rotated"])
        s.press(.char("C"))  // the CA as a device anchor: no delegate, NSPinnedDomains alone decides
        s.press(.char("2"), .char("g"), .char("j"))
        let ca = try XCTUnwrap(s.state.selectedChainRow?.certificate)
        XCTAssertEqual(ca.displayName, "Library Test CA")
        s.press(.char("P"))
        XCTAssertEqual(s.state.toggles.pins, [ca.spkiSHA256])

        s.prompt("X", "pl")  // an unfinished name is refused, with the choices; the prompt stays
        XCTAssertEqual(s.state.message?.hasPrefix("one of: swift"), true, s.state.message ?? "")
        XCTAssertNil(s.state.overlay)
        XCTAssertEqual(s.state.prompt?.text, "pl")
        s.press(.tab)
        XCTAssertEqual(s.state.prompt?.text, "plist", "Tab completes the format")
        s.press(.enter)
        XCTAssertEqual(s.state.overlay?.title, "Export as plist")
        // Named after the target and the content, in the export directory; the popup says where.
        let plistPath = try s.writtenPath()
        XCTAssertTrue(
            plistPath.hasPrefix(Session.exportDirectory + "/trustx-export-pin-rotated-")
                && plistPath.hasSuffix(".plist"),
            plistPath)
        defer { try? FileManager.default.removeItem(atPath: plistPath) }
        let data = try Data(contentsOf: URL(fileURLWithPath: plistPath))
        let plist = try XCTUnwrap(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let ats = try XCTUnwrap(plist["NSAppTransportSecurity"] as? [String: Any])
        let pinned = try XCTUnwrap(ats["NSPinnedDomains"] as? [String: [String: Any]])
        let entry = try XCTUnwrap(pinned["pin-rotated.trustx.test"])
        let caPins = try XCTUnwrap(entry["NSPinnedCAIdentities"] as? [[String: String]])
        XCTAssertEqual(caPins.map { $0["SPKI-SHA256-BASE64"] }, [ca.spkiPin], "the pinned key is the CA's")
        XCTAssertNil(entry["NSPinnedLeafIdentities"])
        XCTAssertEqual(s.copied.last.map { $0.contains(ca.spkiPin) }, true, "the text went to the clipboard too")
        s.press(.escape)

        // The exported plist, loaded as the app's Info.plist: the CA identity matches the path.
        s.press(.char("P"))  // unpin: only NSPinnedDomains pins now
        s.prompt("L", plistPath)
        XCTAssertEqual(s.anyStatus(.pinnedDomains), .passed)
        XCTAssertEqual(s.verdict?.trusted, true)

        s.press(.char("P"))
        s.prompt("X", "swift")
        let swiftPath = try s.writtenPath()
        defer { try? FileManager.default.removeItem(atPath: swiftPath) }
        let swift = try String(contentsOfFile: swiftPath, encoding: .utf8)
        let evaluate = try XCTUnwrap(swift.range(of: "SecTrustEvaluateWithError"))
        let pin = try XCTUnwrap(swift.range(of: ca.spkiPin))
        XCTAssertLessThan(evaluate.lowerBound, pin.upperBound)
        XCTAssertTrue(swift.contains("SecTrustSetAnchorCertificates") == false, "device anchors: the app sets none")
        s.press(.escape)
        s.prompt("X", "curl")
        let curl = try XCTUnwrap(s.state.overlay?.paragraphs.first { $0.contains("curl ") })
        XCTAssertTrue(curl.contains("--pinnedpubkey"), curl)
        XCTAssertTrue(curl.contains("sha256//\(ca.spkiPin)"), curl)
        XCTAssertTrue(curl.contains("--resolve"), curl)
    }

    /// Pin advice shows in the Detail pane of the step that checks the pins.
    func testPinAdviceShowsWithThePinStep() throws {
        let s = Session(scenarios: ["good"])
        s.press(.char("2"), .char("g"), .char("P"))  // the leaf's key, alone
        XCTAssertEqual(s.verdict?.trusted, true)
        s.press(.char("3"))
        while s.state.selectedStepValue?.id != .pin { s.press(.char("j")) }
        let text = DetailContent.lines(s.state).map(\.text)
        let heading = try XCTUnwrap(text.firstIndex(of: "Pin advice"), text.joined(separator: "\n"))
        let advice = text[(heading + 1)...].joined(separator: "\n")
        XCTAssertTrue(advice.contains("--pin: Only one pin"), advice)
        XCTAssertTrue(advice.contains("--pin: "), advice)
        XCTAssertEqual(s.state.evaluation?.pinAdvice.map(\.identifier).sorted(), ["leaf-only", "single-pin"])
    }

    /// In the lab, an ATS lesson lists its Info.plists and `L` starts at them.
    func testAnATSLessonListsItsInfoPlistsAndLStartsThere() throws {
        let s = Session(scenarios: ["tls11-only"])
        s.press(.char("1"))
        let detail = DetailContent.lines(s.state).map { line in
            if case .field(let label) = line.kind { return label + "  " + line.text }
            return line.text
        }.joined(separator: "\n")
        XCTAssertTrue(detail.contains("L loads one of these Info.plists"), detail)
        for label in ["ats-default", "tls-1.1", "tls-1.0", "tls-1.1-misspelt"] {
            XCTAssertTrue(detail.contains("tls11-only.\(label).plist"), label)
        }
        s.press(.char("L"))
        let start = try XCTUnwrap(s.state.prompt?.text)
        guard case .running(let directory) = s.state.lab else { return XCTFail("the lab is not running") }
        XCTAssertEqual(start, "\(directory)/tls11-only.", "the lesson's files, for Tab to list")
        s.press(.tab)
        let listed = s.state.prompt?.completions ?? []
        for label in ["ats-default", "tls-1.1", "tls-1.0", "tls-1.1-misspelt"] {
            XCTAssertTrue(listed.contains { $0.hasSuffix("tls11-only.\(label).plist") }, "\(label) in \(listed)")
        }
        s.type("tls-1.0.plist")
        s.press(.enter)
        XCTAssertEqual(s.state.toggles.ats.source?.hasSuffix("/tls11-only.tls-1.0.plist"), true)
        XCTAssertEqual(s.verdict?.trusted, true, "TLSv1.0 lowers the floor below the server's 1.1")
    }
}

extension Session {
    /// The status of the first step `id`, on whichever certificate it is.
    func anyStatus(_ id: StepID) -> StepStatus? { state.evaluation?.steps.first { $0.id == id }?.status }

    /// The file the export popup says it wrote ("Written to PATH and copied …").
    func writtenPath() throws -> String {
        let first = try XCTUnwrap(state.overlay?.paragraphs.first)
        let start = try XCTUnwrap(first.range(of: "Written to "))
        let end = try XCTUnwrap(first.range(of: " and copied"))
        return String(first[start.upperBound..<end.lowerBound])
    }
}
