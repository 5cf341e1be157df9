import Foundation
import TrustCore
import TrustExport
import TrustSupport
import TrustX509
import XCTest

/// Every setting, in every export: either the export does it, or a comment says it cannot
/// (docs/export.md, "What each export cannot express"). The expected table below is that page's
/// table, written out, not the exports' output.
final class UnexpressedSettingsTests: XCTestCase {
    static let host = "api.example.test"

    /// The four exports of `s`.
    func render(_ s: ExportSettings, _ format: ExportFormat) -> String {
        let text: String
        switch format {
        case .swift: text = SwiftDelegateExport.render(s)
        case .plist: text = PinnedDomainsExport.fragment(s)
        case .curl: text = CurlExport.render(s)
        case .openssl: text = OpenSSLExport.render(s)
        }
        // XML comments cannot hold "--": the plist export writes an option `--name` as
        // `option name`, and any other second hyphen of two as \u{2D}.
        guard format == .plist else { return text }
        return text.replacingOccurrences(of: "option ", with: "--").replacingOccurrences(of: "\\u{2D}", with: "-")
    }

    /// The comment lines of an export: `//` in Swift, `<!--` in XML, `#` in shell.
    func comments(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            $0.hasPrefix("//") || $0.hasPrefix("<!--") || $0.hasPrefix("#")
        }
    }

    func code(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !($0.hasPrefix("//") || $0.hasPrefix("<!--") || $0.hasPrefix("#"))
        }
    }

    /// One setting: how to apply it, the text a comment about it names, and for each export the
    /// code that carries it (nil: the export cannot, so a comment must).
    struct Case {
        var name: String
        var apply: (inout ExportSettings) -> Void
        var commentMarker: String
        var expressed: [ExportFormat: String?]
    }

    static func cases(_ chain: ExportChain) -> [Case] {
        [
            Case(
                name: "--at", apply: { $0.time = Timestamp(rfc3339: "2030-01-01T00:00:00Z") },
                commentMarker: "--at 2030-01-01T00:00:00Z",
                expressed: [
                    .swift: "SecTrustSetVerifyDate", .plist: nil, .curl: nil, .openssl: "-attime 1893456000",
                ]),
            Case(
                name: "--connect-to", apply: { $0.connectTo = ExportEndpoint(host: "127.0.0.1", port: 8443) },
                commentMarker: "--connect-to 127.0.0.1:8443",
                expressed: [.swift: nil, .plist: nil, .curl: "127.0.0.1:8443", .openssl: "127.0.0.1:8443"]),
            Case(
                name: "--anchor",
                apply: {
                    $0.anchorFiles = [ExportFile(path: "ca.pem", certificates: [chain.root], isPEM: true)]
                    $0.keepsSystemAnchors = false
                },
                commentMarker: "--anchor",
                expressed: [
                    .swift: "SecTrustSetAnchorCertificates(", .plist: nil, .curl: "--cacert ca.pem",
                    .openssl: "-CAfile ca.pem",
                ]),
            Case(
                name: "--policy basic", apply: { $0.policy = .basicX509 }, commentMarker: "SecPolicyCreateBasicX509",
                expressed: [.swift: "SecPolicyCreateBasicX509()", .plist: nil, .curl: nil, .openssl: "openssl verify"]),
            Case(
                name: "--tls-min", apply: { $0.minimumTLSVersion = .tls1_3 }, commentMarker: "--tls-min 1.3",
                expressed: [
                    .swift: "tlsMinimumSupportedProtocolVersion = .TLSv13", .plist: nil, .curl: "--tlsv1.3",
                    .openssl: nil,
                ]),
            Case(
                name: "--tls-max", apply: { $0.maximumTLSVersion = .tls1_2 }, commentMarker: "--tls-max 1.2",
                expressed: [
                    .swift: "tlsMaximumSupportedProtocolVersion = .TLSv12", .plist: nil, .curl: "--tls-max 1.2",
                    .openssl: nil,
                ]),
            Case(
                name: "--include-subdomains", apply: { $0.includesSubdomains = true },
                commentMarker: "--include-subdomains",
                expressed: [.swift: nil, .plist: "<true/>", .curl: nil, .openssl: nil]),
            Case(
                name: "--client safari", apply: { $0.evaluatesAsSafari = true }, commentMarker: "--client safari",
                expressed: [.swift: nil, .plist: nil, .curl: nil, .openssl: nil]),
            Case(
                name: "--profile webpki", apply: { $0.profile = .webpki }, commentMarker: "--profile webpki",
                expressed: [.swift: nil, .plist: nil, .curl: nil, .openssl: nil]),
            Case(
                name: "--sni", apply: { $0.serverName = "other.example.test" },
                commentMarker: "--sni other.example.test",
                expressed: [.swift: nil, .plist: nil, .curl: nil, .openssl: "-servername other.example.test"]),
            Case(
                name: "--no-sni", apply: { $0.sendsNoServerName = true }, commentMarker: "--no-sni",
                expressed: [.swift: nil, .plist: nil, .curl: nil, .openssl: "-noservername"]),
            Case(
                name: "--starttls", apply: { $0.startTLS = "smtp" }, commentMarker: "--starttls smtp",
                expressed: [.swift: nil, .plist: nil, .curl: nil, .openssl: "-starttls smtp"]),
            Case(
                name: "--proxy", apply: { $0.proxy = "http://proxy.example.test:3128" },
                commentMarker: "--proxy http://proxy.example.test:3128",
                expressed: [.swift: nil, .plist: nil, .curl: "--proxy http://proxy.example.test:3128", .openssl: nil]),
            Case(
                name: "--client-cert", apply: { $0.clientCertificate = "me.p12" },
                commentMarker: "--client-cert me.p12",
                expressed: [.swift: nil, .plist: nil, .curl: nil, .openssl: nil]),
            // curl and openssl never fetch from AIA URLs: --no-aia is what they do already.
            Case(
                name: "--no-aia", apply: { $0.fetchesAIA = false }, commentMarker: "--no-aia",
                expressed: [.swift: nil, .plist: nil, .curl: "curl ", .openssl: "openssl verify"]),
            Case(
                name: "--ats-plist", apply: { $0.ats = .infoPlist("App/Info.plist") },
                commentMarker: "--ats-plist App/Info.plist",
                expressed: [.swift: nil, .plist: nil, .curl: nil, .openssl: nil]),
            Case(
                name: "--crl", apply: { $0.revocationLists = ["ca.crl"] }, commentMarker: "--crl ca.crl",
                expressed: [.swift: nil, .plist: nil, .curl: nil, .openssl: nil]),
            Case(
                name: "--revocation", apply: { $0.fetchesRevocation = true }, commentMarker: "--revocation",
                expressed: [.swift: nil, .plist: nil, .curl: nil, .openssl: nil]),
        ]
    }

    func testEverySettingAnExportCannotExpressIsACommentAndTheOthersAreCarried() throws {
        let chain = try ExportChain.make()
        let base = ExportSettings(host: Self.host, policy: .ssl(host: Self.host), path: chain.path)
        for c in Self.cases(chain) {
            var s = base
            c.apply(&s)
            for format in ExportFormat.allCases {
                let text = render(s, format)
                let expressed = try XCTUnwrap(c.expressed[format], "\(c.name): no expectation for \(format)")
                if let carried = expressed {
                    XCTAssertTrue(
                        code(text).contains { $0.contains(carried) }, "\(c.name) in \(format): no \(carried)\n\(text)")
                    XCTAssertFalse(
                        s.unexpressed(in: format).contains { $0.contains(c.commentMarker) },
                        "\(c.name) in \(format) is carried, yet listed as not expressed")
                } else {
                    XCTAssertTrue(
                        comments(text).contains { $0.contains(c.commentMarker) },
                        "\(c.name) in \(format): no comment naming \(c.commentMarker)\n\(text)")
                }
            }
        }
    }

    /// The defect: `trustx export curl … --at 2030-01-01T00:00:00Z` gave a bare curl command that
    /// exits 0 where check says -67818 (expired at that time).
    func testCurlExportWithAnEvaluationTimeSaysCurlUsesTheCurrentTime() throws {
        var s = ExportSettings(host: Self.host, policy: .ssl(host: Self.host))
        s.time = Timestamp(rfc3339: "2030-01-01T00:00:00Z")
        let text = CurlExport.render(s)
        let note = try XCTUnwrap(comments(text).first { $0.contains("--at 2030-01-01T00:00:00Z") }, text)
        XCTAssertTrue(note.contains("current time"), note)
        // Still a runnable script: the comment comes before the one curl line.
        XCTAssertTrue(text.split(separator: "\n").last?.hasPrefix("curl ") ?? false, text)
    }

    /// Settings every export carries give no comment at all (the list is not boilerplate).
    func testSettingsEveryExportCarriesGiveNoNotExpressedComment() throws {
        let chain = try ExportChain.make()
        let s = ExportSettings(
            host: Self.host, policy: .ssl(host: Self.host), pins: [chain.leaf.spkiSHA256], path: chain.path)
        for format in ExportFormat.allCases {
            XCTAssertEqual(s.unexpressed(in: format), [], "\(format)")
            XCTAssertFalse(render(s, format).contains("xpressed"), "\(format)")
        }
    }

    /// curl and openssl trust this machine's roots and an app Apple's: a store the tool does not use
    /// is named, and Apple's (the default) only when this chain's root is in one store only.
    func testASystemStoreTheToolDoesNotUseIsNamedOnlyWhereItChangesTheAnswer() throws {
        let chain = try ExportChain.make(rootName: "Only Apple Root")
        var s = ExportSettings(host: Self.host, policy: .ssl(host: Self.host), path: chain.path)
        s.rootInOneStoreOnly = chain.root
        for format in ExportFormat.allCases {
            let store = s.unexpressed(in: format).filter { $0.hasPrefix("--store") }
            if format == .curl || format == .openssl {
                XCTAssertEqual(store.count, 1, "\(format)")
                XCTAssertTrue(store.first?.contains("root Only Apple Root is in only one") ?? false, "\(format)")
            } else {
                XCTAssertEqual(store, [], "\(format): the device trusts Apple's roots, as evaluated")
            }
        }
        s.systemStore = .openssl
        XCTAssertEqual(s.unexpressed(in: .curl).filter { $0.hasPrefix("--store") }, [])
        XCTAssertEqual(
            s.unexpressed(in: .swift).filter { $0.hasPrefix("--store openssl: the device trusts Apple's") }.count, 1)
        s.systemStore = .path("/etc/pki/roots.pem")
        for format in ExportFormat.allCases {
            XCTAssertEqual(
                s.unexpressed(in: format).filter { $0.hasPrefix("--store /etc/pki/roots.pem: ") }.count, 1, "\(format)")
        }
        // Anchors only (the system roots off): no store is consulted, nothing to say.
        s.keepsSystemAnchors = false
        for format in ExportFormat.allCases {
            XCTAssertEqual(s.unexpressed(in: format).filter { $0.hasPrefix("--store") }, [], "\(format)")
        }
    }

    /// Anchors curl cannot read from their own file go to a file named after their content, so a
    /// second export's script never replaces the first one's anchors.
    func testCurlAnchorsFileIsNamedAfterItsContent() throws {
        let one = try ExportChain.make()
        let two = try ExportChain.make()
        func script(_ chain: ExportChain) -> String {
            var s = ExportSettings(host: Self.host, policy: .ssl(host: Self.host))
            s.anchorFiles = [ExportFile(path: "ca.der", certificates: [chain.root], isPEM: false)]
            return CurlExport.render(s)
        }
        let first = CurlExport.anchorsFile(for: [one.root])
        let second = CurlExport.anchorsFile(for: [two.root])
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(first, CurlExport.anchorsFile(for: [one.root]))
        XCTAssertTrue(script(one).contains("cat > \(first) <<'TRUSTX_PEM'"), script(one))
        XCTAssertTrue(script(one).contains("--cacert \(first)"), script(one))
        // The name is the SHA-256 of the PEM text the script writes, as sha256sum computes it.
        let pem = PEM.encode(one.root.der)
        let dir = try Run.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pem.write(to: dir.appendingPathComponent("a.pem"), atomically: true, encoding: .utf8)
        let sum = try Run.program("/usr/bin/sha256sum", [dir.appendingPathComponent("a.pem").path])
        XCTAssertEqual(first, "trustx-anchors-\(sum.out.prefix(16)).pem")
    }
}
