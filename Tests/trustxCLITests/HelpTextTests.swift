import XCTest

/// The full help of every command, compared whole (swift-argument-parser's habit): any change to
/// an option, its wording or the layout shows up here first.
final class HelpTextTests: XCTestCase {
    // Each help text is printed followed by one blank line, as swift-argument-parser does.
    static let rootHelp = """
        OVERVIEW: Explore TLS server trust the way Apple's SecTrust evaluates it, step
        by step.

        USAGE: trustx <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          check                   Evaluate a certificate chain the way Apple's SecTrust
                                  does and report every step.
          pin                     Print the SPKI SHA-256 pin of every certificate in the
                                  files.

          See 'trustx help <subcommand>' for detailed help.

        """

    static let checkHelp = """
        OVERVIEW: Evaluate a certificate chain the way Apple's SecTrust does and report
        every step.

        Exit status: 0 trusted, 1 not trusted, 64 usage error, 65 malformed input, 66
        unreadable file.

        USAGE: trustx check --chain <file> ... [--password <password>] [--anchor <file> ...] [--with-system-anchors] [--policy <policy>] [--host <host>] [--pin <pin> ...] [--at <time>] [--profile <profile>] [--format <format>]

        OPTIONS:
          --chain <file>          The certificates as a server presents them, leaf
                                  first, from PEM, DER, PKCS#7 or PKCS#12 files.
          --password <password>   The password of the PKCS#12 files given.
          --anchor <file>         Trust the certificates in this file as anchors, and no
                                  system roots, like SecTrustSetAnchorCertificates.
          --with-system-anchors   Trust the system roots as well as the --anchor
                                  certificates, like
                                  SecTrustSetAnchorCertificatesOnly(false).
          --policy <policy>       The policy: SecPolicyCreateSSL with or without a host,
                                  or SecPolicyCreateBasicX509. (values: ssl,
                                  ssl-no-host, basic; default: ssl with --host, else
                                  ssl-no-host)
          --host <host>           The server name or IP address the leaf must match,
                                  which implies --policy ssl.
          --pin <pin>             An SPKI SHA-256 pin (sha256//BASE64 or bare base64)
                                  the app checks after evaluation passes.
          --at <time>             The evaluation time in RFC 3339, e.g.
                                  2027-01-01T00:00:00Z. (default: now)
          --profile <profile>     The rule set: Apple's SecTrust or RFC 5280 with the
                                  CA/Browser Forum rules. (values: apple, webpki;
                                  default: apple)
          --format <format>       The report format. (values: text, json, markdown;
                                  default: text)
          --version               Show the version.
          -h, --help              Show help information.

        """

    static let pinHelp = """
        OVERVIEW: Print the SPKI SHA-256 pin of every certificate in the files.

        USAGE: trustx pin <file> ... [--password <password>]

        ARGUMENTS:
          <file>                  A PEM, DER, PKCS#7 or PKCS#12 file of certificates.

        OPTIONS:
          --password <password>   The password of the PKCS#12 files given.
          --version               Show the version.
          -h, --help              Show help information.

        """

    func testTopLevelHelpListsTheSubcommands() throws {
        for args in [["--help"], ["-h"], ["help"]] {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 0, "\(args)")
            XCTAssertEqual(r.out, Self.rootHelp + "\n", "\(args)")
            XCTAssertEqual(r.err, "")
        }
    }

    func testCheckHelpShowsEveryOptionWithValuesAndDefaults() throws {
        for args in [
            ["check", "--help"], ["check", "-h"], ["help", "check"], ["check", "--chain", "x.pem", "--help"],
        ] {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 0, "\(args)")
            XCTAssertEqual(r.out, Self.checkHelp + "\n", "\(args)")
        }
    }

    func testPinHelpShowsItsArgument() throws {
        for args in [["pin", "--help"], ["help", "pin"]] {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 0, "\(args)")
            XCTAssertEqual(r.out, Self.pinHelp + "\n", "\(args)")
        }
    }

    func testVersionIsPrintedAlone() throws {
        for args in [["--version"], ["check", "--version"], ["pin", "--version"]] {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 0)
            XCTAssertEqual(r.out, "0.1.0\n", "\(args)")
        }
    }

    func testNoArgumentsSaysTheExplorerComesLaterAndRunsTheDemonstration() throws {
        let r = try CLI.run([])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.err, "")
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.first, "trustx 0.1.0: the interactive trust explorer comes in a later version.")
        XCTAssertTrue(lines.contains("✓ Trusted  errSecSuccess (0)"), r.out)
        let variations = lines.drop { $0 != "What changes the verdict (same chain):" }.dropFirst()
        func row(_ prefix: String) -> String { variations.first { $0.hasPrefix("  " + prefix + " ") } ?? "" }
        XCTAssertTrue(
            row("--host example.test").hasSuffix("✗ errSecHostNameMismatch (-67602), NSURLErrorCancelled (-999)"))
        XCTAssertTrue(
            row("no --anchor").hasSuffix(
                "✗ errSecCreateChainFailed (-25318), NSURLErrorServerCertificateUntrusted (-1202)"))
        XCTAssertTrue(row("--at").hasSuffix("✗ errSecCertificateExpired (-67818), NSURLErrorCancelled (-999)"))
        XCTAssertTrue(row("--anchor leaf.pem").hasSuffix("✓ trusted"))
        XCTAssertTrue(row("--policy basic").hasSuffix("✓ trusted"))
        XCTAssertEqual(
            lines.last(where: { !$0.isEmpty }), "Run 'trustx check --help' to evaluate your own certificates.")
    }

    func testTheDemonstrationIsASCIIOutsideUTF8Locales() throws {
        let r = try CLI.run([], environment: ["LANG": "C"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.allSatisfy { $0 < 0x80 }, r.out)
        XCTAssertTrue(r.out.contains("\n+ Trusted  errSecSuccess (0)\n"), r.out)
    }

    func testEveryHelpStringIsOneSentenceEndingWithAPeriod() {
        for help in [Self.rootHelp, Self.checkHelp, Self.pinHelp] {
            // Join wrapped lines back into one text per option, then strip the "(values: …)" suffix.
            var entries: [String] = []
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("                          ") {
                    entries[entries.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
                } else if line.hasPrefix("  ") && !line.hasPrefix("  See ") {
                    entries.append(String(line.dropFirst(26)))
                }
            }
            for entry in entries {
                let text = entry.components(separatedBy: " (values: ").first!.components(separatedBy: " (default: ")
                    .first!
                XCTAssertTrue(text.hasSuffix("."), "not a sentence: \(entry)")
                XCTAssertTrue(text.first?.isUppercase ?? false, "not a sentence: \(entry)")
            }
        }
    }
}
