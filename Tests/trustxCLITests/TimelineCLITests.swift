import CommandLineSpec
import Foundation
import PathRules
import SuiteFixtures
import Testing
import TrustCore
import TrustReport
import TrustSupport
import TrustTimeline
import TrustX509

/// `check --timeline` and `--expires-within` against certificates `openssl ca` made with dates
/// of its own (`-startdate`, `-enddate`): the expected instants are read back from the files with
/// `openssl x509 -noout -dates`, not from trustx. The rule that turns a date into an instant is
/// RFC 5280 4.1.2.5: "The validity period for a certificate is the period of time from notBefore
/// through notAfter, inclusive", so a certificate becomes valid at its notBefore and is expired
/// from one second after its notAfter; Apple reports both a not-yet-valid and an expired
/// certificate as errSecCertificateExpired (-67818, SecPolicyServer.c TemporalValidity).
@Suite(.serialized)
struct TimelineCLITests {
    /// A root, an intermediate that expires in February 2028 and a leaf for 127.0.0.1 valid until
    /// the end of March 2028 (821 days, within Apple's 825 for a custom anchor), each with dates
    /// given to `openssl ca`; the leaf is served by `openssl s_server` where a test needs a server.
    static let pki: Result<TestPKI, Error> = Result {
        let pki = try TestPKI(label: "timeline")
        try pki.sh(["mkdir", "-p", "issued"])
        try "".write(toFile: pki.path("index.txt"), atomically: true, encoding: .utf8)
        try "1000\n".write(toFile: pki.path("serial"), atomically: true, encoding: .utf8)
        try "1000\n".write(toFile: pki.path("crlnumber"), atomically: true, encoding: .utf8)
        try """
        [ca]
        default_ca = d
        [d]
        database = index.txt
        new_certs_dir = issued
        serial = serial
        crlnumber = crlnumber
        default_md = sha256
        policy = p
        unique_subject = no
        [p]
        commonName = supplied
        [root]
        basicConstraints = critical,CA:TRUE
        keyUsage = critical,keyCertSign,cRLSign
        subjectKeyIdentifier = hash
        [int]
        basicConstraints = critical,CA:TRUE
        keyUsage = critical,keyCertSign,cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid
        [leaf]
        basicConstraints = CA:FALSE
        keyUsage = critical,digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = IP:127.0.0.1
        authorityKeyIdentifier = keyid

        """.write(toFile: pki.path("ca.cnf"), atomically: true, encoding: .utf8)
        func request(_ name: String, _ cn: String) throws {
            try pki.openssl([
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(cn)",
            ])
        }
        func sign(_ name: String, by issuer: String?, extensions: String, from start: String, to end: String) throws {
            let signer =
                issuer.map { ["-cert", "\($0).pem", "-keyfile", "\($0).key"] } ?? [
                    "-selfsign", "-keyfile", "\(name).key",
                ]
            try pki.openssl(
                ["ca", "-batch", "-notext", "-config", "ca.cnf", "-extensions", extensions, "-in", "\(name).csr"]
                    + signer + ["-out", "\(name).pem", "-startdate", start, "-enddate", end])
        }
        try request("root", "Timeline Root")
        try sign("root", by: nil, extensions: "root", from: "20200101000000Z", to: "20400101000000Z")
        try request("int", "Timeline Intermediate")
        try sign("int", by: "root", extensions: "int", from: "20240101000000Z", to: "20280215120000Z")
        try request("leaf", "127.0.0.1")
        try sign("leaf", by: "int", extensions: "leaf", from: "20260101000000Z", to: "20280331235959Z")
        _ = try pki.bundle("chain.pem", ["leaf", "int"])
        return pki
    }

    let pki: TestPKI

    init() throws { pki = try Self.pki.get() }

    /// `openssl x509 -noout -dates` of `name`, as instants: openssl's own reading of the file.
    func dates(_ name: String) throws -> (notBefore: Timestamp, notAfter: Timestamp) {
        try OpenSSLDates.read(pki.path("\(name).pem"))
    }

    /// 2026-06-01T00:00:00Z: after every notBefore, before every notAfter.
    static let at = "2026-06-01T00:00:00Z"

    func check(_ extra: [String]) throws -> RunResult {
        try CLI.run(
            [
                "check", "--chain", pki.path("chain.pem"), "--anchor", pki.path("root.pem"), "--host", "127.0.0.1",
                "--at", Self.at,
            ] + extra)
    }

    @Test func testTheTimelineChangesAtTheLastNotBeforeAndOneSecondAfterTheFirstNotAfter() throws {
        let (leaf, int) = (try dates("leaf"), try dates("int"))
        let run = try check(["--timeline", "--format", "json"])
        #expect(run.status == 0, "\(run.err)")
        let json = try run.json()
        let timeline = try #require(json["timeline"] as? [[String: Any]])
        // Before the leaf's notBefore it is not yet valid (-67818 under Apple's rules), from it on
        // trusted; the intermediate's notAfter comes before the leaf's, so the chain breaks one
        // second after it, and the later expiries change neither the verdict nor the code.
        #expect(
            timeline.map { $0["at"] as? String } == [leaf.notBefore.rfc3339, int.notAfter.adding(seconds: 1).rfc3339])
        #expect(timeline.map { $0["trusted"] as? Bool } == [true, false])
        #expect(timeline.map { $0["osstatus"] as? Int } == [0, -67818])
        #expect(timeline.map { $0["osstatusName"] as? String } == ["errSecSuccess", "errSecCertificateExpired"])
        let cause = try #require(timeline.last?["cause"] as? String)
        #expect(cause.contains("intermediate Timeline Intermediate expires"), "\(cause)")
        let kinds = (timeline.last?["boundaries"] as? [[String: Any]])?.map { $0["kind"] as? String }
        #expect(kinds == ["not-after"])
        let search = try #require(json["timelineSearch"] as? [String: Any])
        #expect(search["trustedNow"] as? Bool == true)
        #expect(search["incomplete"] is NSNull)
        #expect(search["time"] as? String == Self.at)
    }

    @Test func testTheReportWithoutTheOptionHasNoTimelineKey() throws {
        let run = try check(["--format", "json"])
        let json = try run.json()
        #expect(json["timeline"] == nil && json["timelineSearch"] == nil)
    }

    @Test func testTheTextTimelineMarksTheEvaluationTimeBetweenThePastAndTheFuture() throws {
        let (leaf, int) = (try dates("leaf"), try dates("int"))
        let run = try check(["--timeline"])
        #expect(run.status == 0, "\(run.err)")
        let section = try #require(run.out.split(separator: "\nTimeline: ").last).split(separator: "\n")
        #expect(section.count == 4, "\(run.out)")
        #expect(section[1].hasPrefix("  \(leaf.notBefore.rfc3339)  ✓ trusted: leaf 127.0.0.1 becomes valid"))
        #expect(section[2] == "  ── \(Self.at) evaluation time ──")
        #expect(
            section[3].hasPrefix("  \(int.notAfter.adding(seconds: 1).rfc3339)  ✗ errSecCertificateExpired (-67818): "))
    }

    @Test func testExpiresWithinExitsTwoOnlyWhenTheFirstFailureIsInsideTheWindow() throws {
        let int = try dates("int")
        let at = try #require(Timestamp(rfc3339: Self.at))
        // The first failure is one second after the intermediate's notAfter; a window of whole
        // days reaches it from the day it passes that instant.
        let seconds = int.notAfter.adding(seconds: 1).secondsSinceEpoch - at.secondsSinceEpoch
        let days = Int(seconds / 86_400)
        #expect(seconds % 86_400 != 0)
        let outside = try check(["--expires-within", "\(days)"])
        #expect(outside.status == 0, "\(outside.err)")
        #expect(outside.err == "")
        let inside = try check(["--expires-within", "\(days + 1)"])
        #expect(inside.status == 2)
        #expect(
            inside.err.hasPrefix(
                "Note: trusted now, fails within \(days + 1) days: from \(int.notAfter.adding(seconds: 1).rfc3339), errSecCertificateExpired (-67818): "
            ), "\(inside.err)")
    }

    @Test func testExpiresWithinKeepsOneForAChainNotTrustedNow() throws {
        let run = try CLI.run([
            "check", "--chain", pki.path("chain.pem"), "--anchor", pki.path("root.pem"), "--host", "127.0.0.1",
            "--at", "2029-01-01T00:00:00Z", "--expires-within", "36500",
        ])
        #expect(run.status == 1)
    }

    @Test func testExpiresWithinValuesOutsideItsRangeAreUsageErrors() throws {
        for value in ["-1", "36501", "ten"] {
            let run = try check(["--expires-within", value])
            #expect(run.status == 64, "\(value)")
            #expect(run.err.contains("'--expires-within <days>'"), "\(run.err)")
        }
        #expect(try check(["--timeline", "--quiet"]).status == 64)
        #expect(try check(["--timeline", "--format", "junit"]).status == 64)
    }

    @Test func testTheTimelineStopsAtItsBoundAndSaysWhy() throws {
        let chain = try CertificateLoader.load(path: pki.path("chain.pem"))
        let root = try #require(try CertificateLoader.load(path: pki.path("root.pem")).first)
        let settings = TrustSettings(
            anchors: [root], policy: .ssl(host: "127.0.0.1"), time: try #require(Timestamp(rfc3339: Self.at)))
        let evaluation = try #require(Evaluator().evaluate(chain: chain, settings: settings))
        let bounded = Timeline.make(evaluation, limits: Timeline.Limits(boundaries: 2, evaluations: 100))
        #expect(bounded.incomplete == "stopped after 2 boundaries")
        #expect(bounded.boundaries.count == 2)
        let full = Timeline.make(evaluation)
        #expect(full.incomplete == nil)
        // Three certificates' two dates each and the leaf's allowed lifetime: at most two
        // evaluations per boundary and one at the evaluation time.
        #expect(full.boundaries.count == 7)
        #expect(full.evaluations <= 2 * full.boundaries.count + 1)
    }

    /// A CRL that lists the leaf, made now by `openssl ca -gencrl -crldays 30` in a copy of the
    /// CA's files: from its thisUpdate the leaf is revoked (errSecCertificateRevoked, -67820);
    /// once its nextUpdate has passed it is not used (RFC 5280 6.3.3 (a)(2)) and Apple's
    /// fail-soft checking trusts the chain again; the dates are openssl's (`openssl crl
    /// -lastupdate -nextupdate`).
    @Test func testACRLIsFoundWhereItStartsAndStopsRevokingTheLeaf() throws {
        let copy = try TestPKI(label: "timeline-crl")
        for name in ["ca.cnf", "index.txt", "serial", "crlnumber", "int.pem", "int.key", "leaf.pem"] {
            try FileManager.default.copyItem(atPath: pki.path(name), toPath: copy.path(name))
        }
        try copy.openssl(["ca", "-config", "ca.cnf", "-keyfile", "int.key", "-cert", "int.pem", "-revoke", "leaf.pem"])
        try copy.openssl([
            "ca", "-config", "ca.cnf", "-keyfile", "int.key", "-cert", "int.pem", "-gencrl", "-crldays", "30", "-out",
            "crl.pem",
        ])
        var crlDates: [String: Timestamp] = [:]
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy zzz"
        for line in try copy.sh(["openssl", "crl", "-in", "crl.pem", "-noout", "-lastupdate", "-nextupdate"])
            .split(separator: "\n")
        {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            let date = try #require(formatter.date(from: parts[1].split(separator: " ").joined(separator: " ")))
            crlDates[parts[0]] = Timestamp(secondsSinceEpoch: Int64(date.timeIntervalSince1970))
        }
        let (issued, stale) = (try #require(crlDates["lastUpdate"]), try #require(crlDates["nextUpdate"]))
        let run = try check(["--crl", copy.path("crl.pem"), "--timeline", "--format", "json"])
        #expect(run.status == 0, "\(run.err)")
        let timeline = try #require(try run.json()["timeline"] as? [[String: Any]])
        let int = try dates("int")
        #expect(
            timeline.map { $0["at"] as? String } == [
                try dates("leaf").notBefore.rfc3339, issued.rfc3339, stale.adding(seconds: 1).rfc3339,
                int.notAfter.adding(seconds: 1).rfc3339,
            ])
        #expect(timeline.map { $0["osstatus"] as? Int } == [0, -67820, 0, -67818])
        #expect(
            timeline.dropFirst().prefix(2).map { ($0["boundaries"] as? [[String: Any]])?.first?["kind"] as? String }
                == ["revocation-dates", "revocation-dates"])
    }

    /// A subject with an escape, a bidi override and a C1 CSI reaches the timeline's causes; the
    /// text escapes them as the report does.
    @Test func testAHostileSubjectIsEscapedInTheTimeline() throws {
        let cli = try TestPKI.get()
        let run = try CLI.run([
            "check", "--chain", cli.path("hostile.pem"), "--anchor", cli.path("hostile.pem"), "--policy", "basic",
            "--timeline",
        ])
        let section = try #require(run.out.split(separator: "\nTimeline: ").last)
        #expect(section.contains("becomes valid"), "\(run.out)")
        for scalar: Unicode.Scalar in ["\u{1B}", "\u{202E}", "\u{9B}"] {
            #expect(!section.unicodeScalars.contains(scalar), "\(section)")
        }
    }

    // MARK: Servers: several targets and --watch

    func server() throws -> OpenSSLServer {
        try OpenSSLServer(
            ["-cert", pki.path("leaf.pem"), "-key", pki.path("leaf.key"), "-cert_chain", pki.path("int.pem")],
            in: pki.directory)
    }

    @Test func testSeveralTargetsExitTwoWhenOneFailsSoonAndOneWhenOneIsNotTrusted() throws {
        let s = try server()
        defer { s.stop() }
        let anchor = ["--anchor", pki.path("root.pem"), "--at", Self.at, "--expires-within", "36500", "--quiet"]
        let soon = try CLI.run(["check", "127.0.0.1:\(s.port)", "127.0.0.1:\(s.port)"] + anchor)
        #expect(soon.status == 2, "\(soon.out)\(soon.err)")
        #expect(soon.err == "")
        // A certificate for another name is not trusted now (-67602), which outranks failing later.
        let mixed = try CLI.run(
            ["check", "127.0.0.1:\(s.port)", "https://other.trustx.test:\(s.port)", "--connect-to", "127.0.0.1"]
                + anchor)
        #expect(mixed.status == 1, "\(mixed.out)\(mixed.err)")
    }

    @Test func testTheTableOfSeveralTargetsIsFollowedByEachOneThatFailsSoon() throws {
        let s = try server()
        defer { s.stop() }
        let int = try dates("int")
        let run = try CLI.run([
            "check", "127.0.0.1:\(s.port)", "https://other.trustx.test:\(s.port)", "--connect-to", "127.0.0.1",
            "--anchor", pki.path("root.pem"), "--at", Self.at, "--expires-within", "36500",
        ])
        #expect(run.status == 1, "\(run.err)")
        let lines = run.out.split(separator: "\n")
        // The target not trusted now has no line: only a chain trusted now can fail soon.
        #expect(lines.filter { $0.contains("fails from") }.count == 1, "\(run.out)")
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "127.0.0.1:\(s.port): trusted now, fails from \(int.notAfter.adding(seconds: 1).rfc3339): errSecCertificateExpired (-67818): "
                )
            }, "\(run.out)")
    }

    @Test func testAWatchEndsWithTwoWhenItsLastRoundFailsSoon() throws {
        let s = try server()
        defer { s.stop() }
        let run = try CLI.run([
            "check", "127.0.0.1:\(s.port)", "--anchor", pki.path("root.pem"), "--at", Self.at, "--expires-within",
            "36500", "--watch", "1", "--watch-count", "1", "--timeline", "--format", "json",
        ])
        #expect(run.status == 2, "\(run.err)")
        let line = try #require(run.out.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let report = try #require(object["report"] as? [String: Any])
        #expect((report["timeline"] as? [Any])?.count == 2)
    }
}

/// The date-constraint boundary: trustd's Valid database bounds what a constrained CA issued, and
/// once its not-after date is past a path through it needs CT (SecRevocationServer.c,
/// SecRVCProcessValidDateConstraints: "a not-after date in the past sets requireCT"; CTRequired is
/// errSecNotTrusted, -67843). The bound is compared as `bound < time`, so the first instant that
/// needs CT is one second after it.
@Suite(.serialized)
struct TimelineDateConstraintTests {
    @Test func testTheTimelineFindsWhenADateConstraintStartsToRequireCT() throws {
        let pki = try TimelineCLITests().pki
        let chain = try CertificateLoader.load(path: pki.path("chain.pem"))
        let root = try #require(try CertificateLoader.load(path: pki.path("root.pem")).first)
        let bound = try #require(Timestamp(rfc3339: "2027-01-01T00:00:00Z"))
        var settings = TrustSettings(
            anchors: [root], policy: .ssl(host: "127.0.0.1"),
            time: try #require(Timestamp(rfc3339: TimelineCLITests.at)))
        settings.dateConstraints = DateConstraint.table([
            DateConstraint(
                sha256: hexString(chain[1].sha256), name: "Timeline Intermediate", notAfter: bound,
                cutoffDate: "2026-12-31", source: "test")
        ])
        let evaluation = try #require(Evaluator().evaluate(chain: chain, settings: settings))
        #expect(evaluation.verdict.trusted, "the leaf was issued before the bound: \(evaluation.verdict.summary)")
        let timeline = Timeline.make(evaluation)
        let change = try #require(timeline.entries.first { $0.at > settings.time })
        #expect(change.at == bound.adding(seconds: 1))
        #expect(!change.trusted)
        #expect(change.osstatus == -67843)
        #expect(change.causes.map(\.kind) == [.dateConstraint])
        #expect(timeline.nextFailure == change)
    }
}

/// Under `--watch --expires-within`, a chain trusted in two rounds that enters the window between
/// them is a change of its own, and the JSON outcome names the instant only under the option.
@Suite struct TimelineWatchChangeTests {
    func summary(failsFrom: Timestamp?) -> WatchSummary {
        var s = WatchSummary(
            trusted: true, osstatus: 0, osstatusName: "errSecSuccess", urlError: nil, leafSHA256: "aa",
            leafSPKISHA256: "bb", chainSHA256: ["aa"], leafNotAfter: nil)
        s.failsFrom = failsFrom
        return s
    }

    @Test func testEnteringTheWindowIsAChangeAndLeavingItIsNone() throws {
        let at = try #require(Timestamp(rfc3339: "2028-02-15T12:00:01Z"))
        #expect(WatchHistory.differences(summary(failsFrom: nil), summary(failsFrom: at)) == [.expiresSoon])
        #expect(WatchHistory.differences(summary(failsFrom: at), summary(failsFrom: at)) == [])
        #expect(WatchHistory.differences(summary(failsFrom: at), summary(failsFrom: nil)) == [])
        let change = WatchChange(
            time: at, target: "t", address: nil, kind: .expiresSoon, old: .evaluated(summary(failsFrom: nil)),
            new: .evaluated(summary(failsFrom: at)))
        #expect(change.summaryText == "trusted, fails from 2028-02-15T12:00:01Z (within --expires-within)")
        #expect(change.jsonLine.contains("\"new\":{\"result\":\"evaluated\",\"trusted\":true,"))
        #expect(change.jsonLine.contains(",\"failsFrom\":\"2028-02-15T12:00:01Z\"}}"))
        // Without the option the outcome is what a watch printed before it existed.
        let plain = JSONWriter.serializeLine(WatchChange.outcomeJSON(.evaluated(summary(failsFrom: nil))))
        #expect(plain.hasSuffix(",\"leafNotAfter\":null}\n"), "\(plain)")
    }
}
