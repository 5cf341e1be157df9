import Explorer
import ExplorerState
import TLSProbe
import TermUI
import TrustCore
import TrustLab
import TrustOptions
import TrustSupport
import TrustX509
import XCTest

/// The explorer's bottom lines, the lesson rows and the themes at the sizes a trainer uses
/// (issue 28, items 8, 9, 10, 16 and 18's Detail host line): what docs/explorer.md promises,
/// checked against its rules at every width rather than against one captured screen.
final class LayoutIssueTests: XCTestCase {
    static let widths = [60, 80, 100, 110, 120, 160]

    /// The height for `width`: each layout the explorer has (one pane, two, four).
    static func height(_ width: Int) -> Int { width >= 160 ? 48 : width >= 80 ? 24 : 16 }

    /// The verdict line: the first of the four bottom lines.
    static func verdictRow(_ state: AppState, width: Int) -> String {
        let lines = ExplorerView.lines(state, width: width, height: height(width))
        return lines[lines.count - 4].trimmingCharacters(in: .whitespaces)
    }

    static func settingsRow(_ state: AppState, width: Int, height: Int = 24) -> String {
        let lines = ExplorerView.lines(state, width: width, height: height)
        return lines[lines.count - 3]
    }

    /// Item 8: the documented drop order holds at every width. The code and the URLError's
    /// number always stay; the OSStatus's name is shown only beside the whole reason; the
    /// URLError's name only beside the OSStatus's; the check key only beside all of them; and
    /// the whole reason is shown whenever the short form with it fits.
    func testTheVerdictLineDropsInTheDocumentedOrderAtEveryWidth() throws {
        let s = Session(scenarios: ["wrong-host"])
        s.select("wrong-host")
        let v = try XCTUnwrap(s.verdict)
        let step = try XCTUnwrap(v.decisiveStep)
        let failure = try XCTUnwrap(step.appleFailure)
        let url = try XCTUnwrap(v.urlError)
        let reason = step.title
        XCTAssertEqual(v.osstatus, -67602, "wrong-host fails Apple's SSLHostname check")
        for width in Self.widths {
            let line = Self.verdictRow(s.state, width: width)
            let at = "at \(width) columns: \(line)"
            XCTAssertLessThanOrEqual(line.count, width, at)
            XCTAssertTrue(line.contains("-67602"), "the code stays " + at)
            XCTAssertTrue(line.contains("URLError \(url)"), "the URLError stays " + at)
            if line.contains(v.osstatusName) {
                XCTAssertTrue(line.contains(reason), "the OSStatus's name goes before the reason " + at)
            }
            if line.contains(URLErrorNames.name(url)) {
                XCTAssertTrue(line.contains(v.osstatusName), "the URLError's name goes before the OSStatus's " + at)
            }
            if line.contains(failure.check) {
                XCTAssertTrue(line.contains(URLErrorNames.name(url)), "the check goes first " + at)
            }
            let short = "✗ -67602 · URLError \(url) · \(reason)"
            if short.count <= width {
                XCTAssertTrue(line.contains(reason), "the whole reason fits " + at)
            }
        }
    }

    /// Item 8: a failure whose code is a URLError (a client certificate the server wants, ATS
    /// refusing what it negotiated) keeps that URLError at every width.
    func testTheVerdictLineKeepsTheURLErrorOfAHandshakeOrATSFailure() throws {
        let s = Session(scenarios: ["mtls-required", "no-forward-secrecy"])
        s.select("mtls-required")
        let mtls = try XCTUnwrap(s.verdict?.urlError, "a server that wants a client certificate")
        XCTAssertEqual(mtls, -1206, "URLSession's NSURLErrorClientCertificateRequired")
        for width in Self.widths {
            let line = Self.verdictRow(s.state, width: width)
            XCTAssertTrue(line.contains("URLError -1206"), "at \(width): \(line)")
        }
        s.select("no-forward-secrecy")
        s.press(.char("i"))
        let ats = try XCTUnwrap(
            s.verdict?.urlError ?? s.state.connection?.failure?.urlError, "ATS refuses a suite without forward secrecy")
        for width in Self.widths {
            let line = Self.verdictRow(s.state, width: width)
            XCTAssertTrue(line.contains("URLError \(ats)"), "at \(width): \(line)")
        }
    }

    /// Item 10: the settings line keeps its order (policy, anchors, pins, ATS, then the time):
    /// at 80 columns a long anchors setting leaves ATS in its short form, never `t now` in its
    /// place.
    func testTheSettingsLineKeepsATSBeforeTheTimeAt80Columns() {
        let s = Session(scenarios: ["good"])
        s.press(.char("i"), .char("A"))
        XCTAssertTrue(s.state.toggles.ats.enabled)
        XCTAssertFalse(s.state.toggles.anchorsOnly)
        for width in [60, 80, 100, 120] {
            let line = Self.settingsRow(s.state, width: width)
            // Items are two spaces apart, each led by its key: what is shown is a prefix of the order.
            // (No system store in the session: no `s` item.)
            let order = ["p", "a", "P", "i", "t", "o", "v", "f"]
            let keys = line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").map {
                String($0.prefix(1))
            }
            XCTAssertEqual(keys, Array(order.prefix(keys.count)), "at \(width): \(line)")
            if width >= 80 { XCTAssertTrue(line.contains("i ATS"), "at \(width): \(line)") }
        }
    }

    /// Item 9: a lesson's Try rows break at spaces in a column as wide as the pane allows, and a
    /// variation that replaces the scenario's anchor reads once, not `no --anchor --anchor`.
    func testLessonTryRowsWrapAtWordsAndReadTheirAnchorOnce() throws {
        let s = Session(scenarios: ["self-signed", "ct-none", "ct-valid", "inspection-example"])
        for target in s.state.targets {
            s.select(target.name)
            let variations = target.scenario?.variations ?? []
            for (width, height) in [(120, 50), (200, 60)] {
                var screen = ExplorerView.lines(s.state, width: width, height: height)
                if width < 160 {
                    s.press(.char("4"))
                    screen = ExplorerView.lines(s.state, width: width, height: height)
                    s.press(.char("1"))
                }
                let text = screen.joined(separator: "\n")
                XCTAssertFalse(text.contains("--anchor --anchor"), "\(target.name) at \(width)x\(height)")
                XCTAssertFalse(text.contains("no --anchor --anchor"), "\(target.name)")
                // Every word of a Try row that is on the screen is on it whole.
                for v in variations {
                    for word in v.why.split(separator: " ") where word.count >= 6 {
                        let stem = String(word.prefix(4))
                        guard text.contains(stem) else { continue }
                        XCTAssertTrue(
                            text.contains(word.trimmingCharacters(in: .punctuationCharacters)),
                            "\(target.name) at \(width)x\(height): '\(word)' broken\n\(text)")
                    }
                }
            }
        }
    }

    /// Item 9: the label of a variation that swaps the scenario's anchor for another names it
    /// once.
    func testAVariationThatReplacesTheAnchorIsWordedOnce() throws {
        let s = Session(scenarios: ["self-signed"])
        s.select("self-signed")
        let labels = DetailContent.lines(s.state).compactMap { line -> String? in
            if case .field(let label) = line.kind, label.contains("--anchor") { return label }
            return nil
        }
        XCTAssertFalse(labels.isEmpty)
        for label in labels {
            XCTAssertFalse(label.contains("no --anchor --anchor"), label)
            XCTAssertEqual(label.components(separatedBy: "--anchor").count - 1, 1, label)
        }
    }

    /// Item 18: the target's Detail names the address connected to and the host the policy
    /// checks, which `h` (or `--host`) may make another name.
    func testTheTargetDetailShowsTheAddressAndTheHostChecked() throws {
        var toggles = Toggles()
        toggles.host = .typed("staging.example.test")
        let server = ProbeTarget(host: "127.0.0.1", port: 1)
        var options = ProbeOptions()
        options.proxy = .none
        let target = ExplorerTarget(
            name: ExplorerTarget.serverName(server), location: "https://127.0.0.1:1/", host: "127.0.0.1",
            source: .server(server, options))
        let s = Session(targets: [target], toggles: toggles)
        let fields = DetailContent.lines(s.state).compactMap { line -> (String, String)? in
            if case .field(let label) = line.kind { return (label, line.text) }
            return nil
        }
        XCTAssertEqual(fields.first { $0.0 == "Address" }?.1, "127.0.0.1:1")
        let checked = try XCTUnwrap(fields.first { $0.0 == "Host checked" }?.1)
        XCTAssertTrue(checked.hasPrefix("staging.example.test"), checked)
        XCTAssertTrue(checked.contains("127.0.0.1"), "the target's own name too: \(checked)")
        XCTAssertEqual(DetailContent.title(s.state), "Target 127.0.0.1:1")
    }

    /// Item 6: every file the copied command names is named by its absolute path, relative ones
    /// taken from the directory the explorer started in: chain files, anchors, a client
    /// certificate and its key, CRLs, the Info.plist, a `--store` path and the `--ct-logs` file.
    func testEveryPathInTheCopiedCommandIsAbsolute() throws {
        let leaf = try WatchReduceTests.leaf("files.example.test").certificate
        let files = ExplorerTarget(
            name: "files", location: "chain.pem", host: "", source: .files([leaf], paths: ["chain.pem", "./int.pem"]),
            anchors: [AnchorEntry(leaf, file: "ca/root.pem")])
        var toggles = Toggles()
        toggles.crls = CRLFiles(paths: ["crl/ca.crl"])
        toggles.ats.enabled = true
        toggles.ats.source = "App/Info.plist"
        toggles.store = .path("roots.pem")
        let directory = "/home/me/staging"
        let copied = ReproCommand.make(
            target: files, toggles: toggles, anchors: files.anchorEntries, now: Timestamp(secondsSinceEpoch: 0),
            workingDirectory: directory, ctLogsFile: "logs.json"
        ).command
        for (option, path) in [
            ("--chain", "chain.pem"), ("", "int.pem"), ("--anchor", "ca/root.pem"), ("--crl", "crl/ca.crl"),
            ("--ats-plist", "App/Info.plist"), ("--store", "roots.pem"), ("--ct-logs", "logs.json"),
        ] {
            XCTAssertTrue(
                copied.contains("\(option) \(directory)/\(path)".trimmingCharacters(in: .whitespaces)), copied)
        }
        XCTAssertFalse(copied.contains(" chain.pem"), copied)
        XCTAssertFalse(copied.contains("./"), copied)

        var options = ProbeOptions()
        options.clientIdentity = .pem(certificatePath: "client.pem", keyPath: "keys/client.key")
        let server = ExplorerTarget(
            name: "s", location: "https://127.0.0.1:1/", host: "127.0.0.1",
            source: .server(ProbeTarget(host: "127.0.0.1", port: 1), options))
        let served = ReproCommand.make(
            target: server, toggles: Toggles(), anchors: [], now: Timestamp(secondsSinceEpoch: 0),
            workingDirectory: directory
        ).command
        XCTAssertTrue(
            served.contains("--client-cert \(directory)/client.pem --client-key \(directory)/keys/client.key"), served)
        // An absolute path stays as it is.
        XCTAssertEqual(ReproCommand.absolutePath("/etc/ssl/ca.pem", in: directory), "/etc/ssl/ca.pem")
    }

    /// WCAG 2's contrast ratio of two colours of xterm's palette.
    static func contrast(_ a: Color, _ b: Color) -> Double {
        func luminance(_ c: Color) -> Double {
            let (r, g, b) = ThemeFilesTests.rgb(c)
            func channel(_ v: Double) -> Double {
                let s = v / 255
                return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// Item 16: the high-contrast themes paint a background of their own, so nothing depends on
    /// the terminal's: every cell has one, and every drawn character stands out from it at
    /// WCAG's 4.5:1 for text, on whatever terminal the projector shows.
    func testTheHighContrastThemesHaveABackgroundAndEveryCharacterStandsOut() throws {
        let s = Session(scenarios: ["good", "wrong-host"])
        s.select("wrong-host")
        s.press(.char("p"))
        for name in ["high-contrast", "high-contrast-light"] {
            let theme = try XCTUnwrap(Theme.builtIn(name), name)
            for (width, height) in [(60, 16), (80, 24), (200, 60)] {
                var buffer = Buffer(width: width, height: height)
                ExplorerView.render(s.state, into: &buffer, area: buffer.area, options: ViewOptions(theme: theme))
                var weak: [String] = []
                for y in 0..<height {
                    for x in 0..<width {
                        let cell = try XCTUnwrap(buffer.cell(x: x, y: y))
                        guard let background = cell.style.background, let foreground = cell.style.foreground else {
                            weak.append("\(x),\(y) '\(cell.symbol)' has no colours of the theme's own")
                            continue
                        }
                        let (fg, bg) =
                            cell.style.modifiers.contains(.reverse)
                            ? (background, foreground) : (foreground, background)
                        if cell.symbol != " " && !cell.isContinuation && Self.contrast(fg, bg) < 4.5 {
                            weak.append("\(x),\(y) '\(cell.symbol)' contrast \(Self.contrast(fg, bg))")
                        }
                    }
                }
                XCTAssertEqual(Array(weak.prefix(5)), [], "\(name) at \(width)x\(height)")
            }
        }
    }

    /// Item 16: the light variant is dark on light, the other light on dark.
    func testTheLightVariantIsDarkOnLight() throws {
        let light = try XCTUnwrap(Theme.builtIn("high-contrast-light"))
        let dark = try XCTUnwrap(Theme.builtIn("high-contrast"))
        func brightness(_ c: Color?) throws -> Double {
            let (r, g, b) = ThemeFilesTests.rgb(try XCTUnwrap(c))
            return (r + g + b) / 3
        }
        XCTAssertGreaterThan(try brightness(light[.screen].background), try brightness(light[.screen].foreground))
        XCTAssertLessThan(try brightness(dark[.screen].background), try brightness(dark[.screen].foreground))
    }
}
