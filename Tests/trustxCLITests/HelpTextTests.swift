import SuiteFixtures
import Testing
import TrustLab
import TrustX509

/// The full help of every command, compared whole (swift-argument-parser's habit): any change to
/// an option, its wording or the layout shows up here first.
@Suite(.serialized, .onTestThreads) final class HelpTextTests {
    // Each help text is printed followed by one blank line, as swift-argument-parser does.
    static let rootHelp = """
        OVERVIEW: Explore TLS server trust the way Apple's SecTrust evaluates it, step
        by step.

        With no subcommand, trustx opens the interactive explorer on the built-in lab of
        broken TLS servers on 127.0.0.1 when run on a terminal, and prints a tour of the
        lab otherwise. It takes the options trustx explore takes for the lab, such as
        --theme high-contrast for a projector (see 'trustx explore --help').

        USAGE: trustx [<explore's options for the lab>]
               trustx <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          check                   Evaluate a certificate chain the way Apple's SecTrust
                                  does and report every step.
          explore                 Explore a chain interactively: change anchors, policy,
                                  host, pins and time and watch each step.
          pin                     Print the SPKI SHA-256 pin of every certificate, key
                                  and certificate request in the files.
          lab                     Serve a lab of deliberately broken TLS servers on
                                  loopback for training sessions.
          ats                     Try a server under App Transport Security and its
                                  exceptions, as nscurl --ats-diagnostics does.
          export                  Write the settings as a URLSession delegate, an
                                  NSPinnedDomains plist, a curl command or openssl
                                  commands.
          lint                    Check an Info.plist's App Transport Security and
                                  pinning settings for what a careful reviewer would
                                  flag.
          completions             Print a completion script for bash, zsh or fish, made
                                  from the same option specs as the help.
          store                   List Apple's root store, show one of its roots, or
                                  compare it with this machine's store.
          diff                    Compare two servers, or a server and a chain file,
                                  certificate by certificate.
          explain                 Explain the TLS error codes in text pasted from
                                  Xcode's console or a log.

          See 'trustx help <subcommand>' for detailed help.

        """

    static let checkHelp = """
        OVERVIEW: Evaluate a certificate chain the way Apple's SecTrust does and report
        every step.

        Give a server to connect to, or --chain files. Exit status: 0 trusted, 1 not
        trusted, 2 trusted now but failing within --expires-within DAYS, 64 usage error,
        65 malformed input, 66 unreadable file, 69 connection failed, 73 the
        --write-chain file not written.

        USAGE: trustx check [<target> ...] [--chain <file> ...] [--password <password>] [--anchor <file> ...] [--with-system-anchors] [--anchor-class <class>] [--policy <policy>] [--host <host>] [--pin <pin> ...] [--ats] [--ats-plist <file>] [--platform <platform>] [--crl <file> ...] [--revocation] [--at <time>] [--client <client>] [--profile <profile>] [--format <format>] [--quiet] [--include-pem] [--write-chain <file>] [--timeline] [--expires-within <days>] [--connect-to <address>] [--sni <name>] [--no-sni] [--timeout <seconds>] [--tls-min <version>] [--tls-max <version>] [--client-cert <file>] [--client-key <file>] [--starttls <protocol>] [--proxy <url>] [--no-aia] [--all-addresses] [--no-apple-hello] [--require-revocation] [--store <store>] [--ct-logs <file>] [--date-constraints <file>] [--sct <file> ...] [--ocsp-response <file>] [--targets <file>] [--jobs <count>] [--watch <seconds>] [--watch-count <rounds>] [--until-change]

        ARGUMENTS:
          <target>                A server to connect to: host, host:port,
                                  https://host:port/path or [IPv6]:port (port 443 by
                                  default); smtp://, imap://, pop3://, ftp:// and
                                  postgres:// mean that protocol with STARTTLS on its
                                  usual port (ftp:// is FTP with AUTH TLS on 21, not
                                  implicit FTPS). Several targets are checked
                                  concurrently and summarized in one table, as with
                                  --targets.

        OPTIONS:
          --chain <file>          The certificates as a server presents them, leaf
                                  first, from PEM, DER, PKCS#7 or PKCS#12 files; - reads
                                  standard input.
          --password <password>   The password of the PKCS#12 files given (chain,
                                  anchors or client certificate).
          --anchor <file>         Trust the certificates in this file as anchors, and no
                                  system roots, like SecTrustSetAnchorCertificates.
          --with-system-anchors   Trust the system roots as well as the --anchor
                                  certificates, like
                                  SecTrustSetAnchorCertificatesOnly(false).
          --anchor-class <class>  How the --anchor certificates are trusted: set by the
                                  app, or installed by a configuration profile and
                                  trusted on the device, which Apple holds to fewer
                                  rules. (values: app, device; default: app)
          --policy <policy>       The policy: SecPolicyCreateSSL with or without a host,
                                  or SecPolicyCreateBasicX509. (values: ssl,
                                  ssl-no-host, basic; default: ssl with --host or a
                                  server target, else ssl-no-host)
          --host <host>           The server name or IP address the leaf must match,
                                  which implies --policy ssl; with --policy basic it is
                                  reported but not checked, as SecPolicyCreateBasicX509
                                  ignores it. (default: the server target's host)
          --pin <pin>             An SPKI SHA-256 pin (sha256//BASE64 or bare base64)
                                  the app checks after evaluation passes.
          --ats                   Apply App Transport Security with its defaults, as for
                                  an app whose Info.plist has no NSAppTransportSecurity.
          --ats-plist <file>      Apply App Transport Security and NSPinnedDomains as
                                  this Info.plist (XML or binary) configures them.
          --platform <platform>   The Apple platform and SDK whose ATS rules apply: iOS
                                  17 and later also cover IP addresses; an app built
                                  with a 26 SDK refuses TLS below 1.2 even where ATS
                                  does not apply. (values: ios16, ios17, ios26, macos26,
                                  tvos26, watchos26, visionos26; default: ios26)
          --crl <file>            Check the path against the CRLs in this file (PEM or
                                  DER): a revoked certificate fails with
                                  errSecCertificateRevoked.
          --revocation            Fetch OCSP responses, else CRLs, over the network for
                                  every certificate of the path, as
                                  SecPolicyCreateRevocation with
                                  kSecRevocationUseAnyAvailableMethod does (plain HTTP,
                                  at most 8 fetches).
          --at <time>             The evaluation time in RFC 3339, e.g.
                                  2027-01-01T00:00:00Z. (default: now)
          --client <client>       Who evaluates: an app, or Safari and Apple's other
                                  programs, for which trustd expires a system or app-set
                                  root 60 days early (an Apple-internal rule in
                                  Security-61901). (values: app, safari; default: app)
          --profile <profile>     The rule set: Apple's SecTrust or RFC 5280 with the
                                  CA/Browser Forum rules. (values: apple, webpki;
                                  default: apple)
          --format <format>       The report format. (values: text, json, markdown,
                                  junit; default: text)
          --quiet                 Print one line per target and address and nothing
                                  else: the target, the address, trusted, not-trusted or
                                  failed, the OSStatus and the URLError, separated by
                                  tabs ('-' where none); also with --watch (a line when
                                  it changes). The exit status is unchanged.
          --include-pem           With --format json: add each certificate's PEM to the
                                  report, in presented (the chain as sent) and path.
          --write-chain <file>    Write the chain to serve, the built path's leaf and
                                  intermediates in order without the anchor, as PEM to
                                  this file (- for standard output instead of the
                                  report), once that chain alone and without AIA
                                  evaluates to the same verdict.
          --timeline              Add the instants at which the verdict or its code
                                  changes under these settings (each certificate's
                                  notBefore and notAfter, the date constraints, the SCTs
                                  and their logs), found by evaluating on both sides of
                                  each: a section in text and Markdown, timeline in
                                  JSON.
          --expires-within <days> Exit 2 when the chain is trusted now and not trusted
                                  at some instant within this many days (0 to 36500);
                                  with several targets or --watch, 2 ranks above 0 and
                                  below 1.
          --connect-to <address>  Connect to this host[:port] instead, keeping the
                                  target's name for SNI and the host check; several
                                  addresses separated by commas
                                  (127.0.0.1,127.0.0.2:8443) are checked one report
                                  each, a pool named without DNS.
          --sni <name>            Send this server name instead of the target's.
                                  (default: the target's host name)
          --no-sni                Send no server name at all.
          --timeout <seconds>     The deadline for the whole run: connecting, the
                                  handshake, AIA fetches and evaluation. (default: 10)
          --tls-min <version>     The lowest TLS version offered. (values: 1.0, 1.1,
                                  1.2, 1.3; default: 1.2, as URLSession)
          --tls-max <version>     The highest TLS version offered. (values: 1.0, 1.1,
                                  1.2, 1.3; default: 1.3)
          --client-cert <file>    A client certificate: a PKCS#12 file (with
                                  --password), or PEM with --client-key.
          --client-key <file>     The PEM private key of a PEM --client-cert.
          --starttls <protocol>   Speak this protocol's plaintext preamble before TLS.
                                  (values: smtp, imap, pop3, ftp, postgres)
          --proxy <url>           Tunnel through this HTTP CONNECT proxy
                                  (http://host:port). (default: https_proxy or
                                  HTTPS_PROXY, honouring no_proxy)
          --no-aia                Do not fetch missing intermediates from AIA URLs, as
                                  OpenSSL and curl do not.
          --all-addresses         Check every address the server's name resolves to, one
                                  report each, to find the odd node of a pool.
          --no-apple-hello        Do not send iOS 26's ClientHello (X25519MLKEM768
                                  offered, over 1,200 bytes) on a second connection to
                                  report what the server answers.
          --require-revocation    Fail every certificate of the path without a positive,
                                  verified OCSP response or CRL answer, as
                                  kSecRevocationRequirePositiveResponse does
                                  (errSecIncompleteCertRevocationCheck).
          --store <store>         The system roots: Apple's root store compiled in (what
                                  an Apple device trusts), this machine's OpenSSL store
                                  (SSL_CERT_FILE, SSL_CERT_DIR, else /etc/ssl/certs), or
                                  a PEM bundle or certificate directory at PATH.
                                  (default: apple)
          --ct-logs <file>        Check SCTs against the logs in this file, as
                                  SecTrustSetTrustedLogs: Apple's log_list.json format,
                                  or a property-list array of dictionaries with key (DER
                                  SubjectPublicKeyInfo) and operator. (default: Apple's
                                  list, compiled in)
          --date-constraints <file>
                                  Also apply the date constraints in this JSON file, as
                                  trustd's Valid database would: {"constraints":
                                  [{"name", "sha256" (of the CA certificate),
                                  "notBefore" and/or "notAfter" (RFC 3339),
                                  "overridable" (true or false), "source"}]}. An entry
                                  replaces Apple's for the same CA. (default: Apple's
                                  announced constraints, compiled in)
          --sct <file>            With --chain: SCTs a server would send in its TLS
                                  extension, as a SignedCertificateTimestampList or one
                                  SCT (binary, as sent).
          --ocsp-response <file>  With --chain: the OCSP response (DER) a server would
                                  staple, for its status and its SCTs.
          --targets <file>        Check the servers listed in this file, one target per
                                  line (NAME=TARGET gives it a label), each optionally
                                  followed by its own --connect-to, --sni, --no-sni,
                                  --host, --policy, --pin, --starttls, --tls-min,
                                  --tls-max, --no-aia, --proxy, --timeout; '#' starts a
                                  comment; - reads the list from standard input. At most
                                  1000 checks (targets times their --connect-to
                                  addresses).
          --jobs <count>          How many of several targets are checked at once (1 to
                                  64); each check has its own --timeout. (default: 8)
          --watch <seconds>       Check again every this many seconds (1 to 86400) until
                                  Ctrl-C or SIGTERM: first the usual report, then only
                                  what changed (a new leaf or key, a new chain, a
                                  verdict that flips, an address that appears or goes, a
                                  failure, a recovery), one line per address stamped
                                  with the UTC time; with --format json, one JSON object
                                  per line.
          --watch-count <rounds>  With --watch: stop after this many rounds, the first
                                  included (1 to 1000000); the exit status is the last
                                  round's worst.
          --until-change          With --watch: stop at the first round that finds a
                                  change, with that round's exit status (the worst of
                                  its checks).
          --version               Show the version.
          -h, --help              Show help information.

        """

    static let pinHelp = """
        OVERVIEW: Print the SPKI SHA-256 pin of every certificate, key and certificate
        request in the files.

        A public key, a private key or a certificate request (CSR) gives the pin the
        certificate issued for its key will have: a backup pin can ship before that
        certificate exists. Files are read as trustx check reads --chain files: a
        certificate or key that cannot be read among readable ones is named on standard
        error and left out, the others are printed, and the exit status is then 65.

        USAGE: trustx pin <file> ... [--password <password>]

        ARGUMENTS:
          <file>                  A PEM, DER, PKCS#7 or PKCS#12 file of certificates, or
                                  a PEM or DER public key, private key (PKCS#8, RSA, EC)
                                  or certificate request; - reads standard input.

        OPTIONS:
          --password <password>   The password of the PKCS#12 files or encrypted PKCS#8
                                  private keys given.
          --version               Show the version.
          -h, --help              Show help information.

        """

    static let labHelp = """
        OVERVIEW: Serve a lab of deliberately broken TLS servers on loopback for
        training sessions.

        Prints each scenario's URL and lesson, then serves until Ctrl-C or SIGTERM, when
        every server stops and the lab's files are removed (those --out wrote are kept).
        Check a scenario with: trustx check URL --anchor FILE. To explore the lab
        interactively instead, run trustx with no subcommand (or trustx explore), which
        starts the same servers itself.

        USAGE: trustx lab [--scenario <name> ...] [--port-base <port>] [--listen <address>] [--out <directory>] [--format <format>] [--store <store>] [--group <name> ...] [--rotate-seconds <seconds>]

        OPTIONS:
          --scenario <name>       Serve only this scenario (repeatable). (values: good,
                                  wrong-host, tls12-only, rogue-ca, expired,
                                  not-yet-valid, self-signed, missing-intermediate,
                                  missing-intermediate-aia, wrong-order, untrusted-root,
                                  cn-only, client-auth-eku, rsa-1024, sha1-signature,
                                  long-validity, path-length, name-constraints,
                                  rsa-2048, mtls-required, smtp-starttls, key-rotated,
                                  revoked-ocsp, tls11-only, no-forward-secrecy,
                                  pin-rotated, 1000-sans, 10000-sans, ecc256, ecc384,
                                  extended-validation, no-common-name, no-sct,
                                  no-subject, pinning-test, reversed-chain, rsa2048,
                                  rsa4096, rsa8192, sha1-2016, sha1-2017,
                                  sha1-intermediate, sha256, sha384, sha512, wrong.host,
                                  xn--n1aae7f7o, sha1, superfish, edellroot,
                                  dsdtestprovider, preact-cli, webpack-dev-server,
                                  client-cert-missing, inspection-icloud,
                                  inspection-example, ct-none, ct-one-operator,
                                  ct-valid, cbc, mozilla-modern, mozilla-intermediate,
                                  mozilla-old, null, 3des, rc4, rc4-md5, dh480, dh512,
                                  dh1024, dh2048, dh-composite, dh-small-subgroup,
                                  static-rsa, tls-v1-0, tls-v1-1, tls-v1-2, ssl-v3,
                                  ssl-v2, pool, rotating, distrusted-after-date,
                                  issued-before-distrust, large-hello-reset,
                                  split-hello-dropped, hrr-for-x25519,
                                  works-in-app-fails-in-safari; default: all)
          --port-base <port>      Serve scenario n on port base+n (the AIA server on
                                  base+99), for handouts. (default: ports chosen by the
                                  system)
          --listen <address>      Listen on this address instead of 127.0.0.1; anyone on
                                  that network can then connect. (default: 127.0.0.1)
          --out <directory>       Write the lab's PKI into this directory and keep it
                                  after the lab stops.
          --format <format>       How to describe the running lab. (values: text, json;
                                  default: text)
          --store <store>         The system roots: Apple's root store compiled in (what
                                  an Apple device trusts), this machine's OpenSSL store
                                  (SSL_CERT_FILE, SSL_CERT_DIR, else /etc/ssl/certs), or
                                  a PEM bundle or certificate directory at PATH.
                                  (default: apple)
          --group <name>          Serve only this group of scenarios (repeatable; with
                                  --scenario, both). (values: lessons, ats,
                                  badssl-certificates, badssl-known-bad, badssl-client,
                                  inspection, ct, badssl-cipher-suites,
                                  badssl-key-exchange, badssl-protocols, fleet,
                                  distrust, ios26-hello, client; default: all)
          --rotate-seconds <seconds>
                                  Seconds the rotating scenario serves each of its two
                                  leaves before switching. (default: 20)
          --version               Show the version.
          -h, --help              Show help information.

        """

    static let atsHelp = """
        OVERVIEW: Try a server under App Transport Security and its exceptions, as
        nscurl --ats-diagnostics does.

        Each combination gets a fresh handshake with what an app under it offers, and
        the chain is evaluated with that configuration. Exit status: 0 the default ATS
        policy passes, 1 it does not, 64 usage error, 69 the server cannot be reached.

        USAGE: trustx ats <target> [--connect-to <address>] [--sni <name>] [--timeout <seconds>] [--anchor <file> ...] [--password <password>] [--platform <platform>] [--format <format>] [--store <store>]

        ARGUMENTS:
          <target>                The server: host, host:port or https://host:port/path
                                  (port 443 by default).

        OPTIONS:
          --connect-to <address>  Connect to this host[:port] instead, keeping the
                                  target's name for SNI, the host check and the
                                  exception domain.
          --sni <name>            Send this server name instead of the target's.
                                  (default: the target's host name)
          --timeout <seconds>     The deadline for every combination together:
                                  handshakes, AIA fetches and evaluations. (default: 20)
          --anchor <file>         Trust the certificates in this file as anchors, and no
                                  system roots, like SecTrustSetAnchorCertificates.
          --password <password>   The password of PKCS#12 anchor files.
          --platform <platform>   Whose ATS rules apply: iOS 16 and earlier, iOS 17 and
                                  later, or an app built with a 26 SDK, which refuses
                                  TLS below 1.2 even with NSAllowsArbitraryLoads.
                                  (values: ios16, ios17, ios26, macos26, tvos26,
                                  watchos26, visionos26; default: ios26)
          --format <format>       The report format. (values: text, json; default: text)
          --store <store>         The system roots: Apple's root store compiled in (what
                                  an Apple device trusts), this machine's OpenSSL store
                                  (SSL_CERT_FILE, SSL_CERT_DIR, else /etc/ssl/certs), or
                                  a PEM bundle or certificate directory at PATH.
                                  (default: apple)
          --version               Show the version.
          -h, --help              Show help information.

        """

    @Test func testATSHelpShowsItsOptions() throws {
        for args in [["ats", "--help"], ["help", "ats"]] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args)")
            #expect(r.out == (Self.atsHelp + "\n"), "\(args)")
        }
    }

    @Test func testTopLevelHelpListsTheSubcommands() throws {
        for args in [["--help"], ["-h"], ["help"]] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args)")
            #expect(r.out == (Self.rootHelp + "\n"), "\(args)")
            #expect(r.err == "")
        }
    }

    @Test func testCheckHelpShowsEveryOptionWithValuesAndDefaults() throws {
        for args in [
            ["check", "--help"], ["check", "-h"], ["help", "check"], ["check", "--chain", "x.pem", "--help"],
        ] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args)")
            #expect(r.out == (Self.checkHelp + "\n"), "\(args)")
        }
    }

    @Test func testLabHelpListsEveryScenario() throws {
        let r = try CLI.run(["lab", "--help"])
        #expect(r.status == 0)
        #expect(r.out == (Self.labHelp + "\n"))
    }

    @Test func testPinHelpShowsItsArgument() throws {
        for args in [["pin", "--help"], ["help", "pin"]] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args)")
            #expect(r.out == (Self.pinHelp + "\n"), "\(args)")
        }
    }

    @Test func testVersionIsPrintedAlone() throws {
        for args in [["--version"], ["check", "--version"], ["pin", "--version"]] {
            let r = try CLI.run(args)
            #expect(r.status == 0)
            #expect(r.out == "0.1.0\n", "\(args)")
        }
    }

    // Standard input and output are pipes here, so the explorer does not start: the tour does.
    @Test func testNoArgumentsWithoutATerminalToursTheLab() throws {
        let r = try CLI.run([])
        #expect(r.status == 0)
        #expect(r.err == "")
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let toured = LabScenario.all.filter { $0.group == .lessons || $0.group == .ats }
        #expect(
            lines.first == ("A tour of the built-in lab: \(toured.count) deliberately broken TLS servers on 127.0.0.1,")
        )
        for scenario in toured {
            #expect(lines.contains { $0.hasPrefix("  \(scenario.name) ") }, "no row for \(scenario.name)")
        }
        // Every scenario gave the verdict its catalogue entry expects.
        #expect(!(r.out.contains("the lab expects")), "\(r.out)")
        // docs/steps.md: the host-name pitfall under a custom anchor.
        let wrongHost = try #require(lines.first { $0.hasPrefix("  wrong-host ") })
        #expect(wrongHost.hasSuffix("✗ errSecHostNameMismatch (-67602), URLError -999"), "\(wrongHost)")
        #expect(
            lines.contains("✗ Not trusted  errSecHostNameMismatch (-67602) · URLSession: NSURLErrorCancelled (-999)"),
            "\(r.out)")
        #expect(
            (lines.last(where: { !$0.isEmpty }))
                == "run 'trustx check --help' to evaluate your own servers and certificates.")
    }

    @Test func testTheTourIsASCIIOutsideUTF8Locales() throws {
        let r = try CLI.run([], environment: ["LANG": "C"])
        #expect(r.status == 0)
        #expect(r.stdout.allSatisfy { $0 < 0x80 }, "\(r.out)")
        #expect(r.out.contains("  good                      + trusted\n"), "\(r.out)")
    }

    @Test func testEveryHelpStringIsOneSentenceEndingWithAPeriod() {
        for help in [Self.rootHelp, Self.checkHelp, Self.pinHelp, Self.atsHelp] {
            // Join wrapped lines back into one text per option, then strip the "(values: …)" suffix.
            var entries: [String] = []
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("                          ") {
                    entries[entries.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
                } else if line.hasPrefix("  ") && !line.hasPrefix("  See ") && !line.hasPrefix("       trustx ") {
                    // An option too long for its column has its help on the next lines.
                    // The help column starts at 26, after at least one space (an option of 23
                    // characters leaves exactly one).
                    entries.append(line.prefix(26).hasSuffix(" ") ? String(line.dropFirst(26)) : "")
                }
            }
            for entry in entries {
                let text = entry.trimmingCharacters(in: .whitespaces).components(separatedBy: " (values: ").first!
                    .components(separatedBy: " (default: ").first!
                #expect(text.hasSuffix("."), "not a sentence: \(entry)")
                #expect(text.first?.isUppercase ?? false, "not a sentence: \(entry)")
            }
        }
    }
}
