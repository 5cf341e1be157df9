import AppleTrustData
import SuiteFixtures
import TrustSupport
import XCTest

@testable import CTModel
@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// Apple's Certificate Transparency policy with SCTs from logs made here (P-256 keys). Every
/// expected value is trustd's rule as docs/steps.md states it (Security, trust/trustd/
/// CertificateTransparency.m and SecPolicyServer.c): enforced for the SSL policy at non-Apple
/// system roots; embedded SCTs need, by lifetime, 2/3/4/5 logs before 2021-04-21 (months: under
/// 15, to 27, to 39, more) and 2/3/4 from then on (days: to 180, to 825, more), one of them from
/// a currently trusted log; delivered SCTs (TLS extension, OCSP) need 2 current logs.
final class CertificateTransparencyTests: XCTestCase {
    /// Five logs, each its own operator.
    static let logs: [CTTestLog] = (0..<5).map { try! CTTestLog("Test log \($0)", operatorName: "Operator \($0)") }
    /// Three logs of one operator.
    static let oneOperatorLogs: [CTTestLog] = (0..<3).map {
        try! CTTestLog("Single-operator log \($0)", operatorName: "Only Operator")
    }
    static let root = try! TestPKI.root(
        "CT Test Root", notBefore: TestPKI.date(2018, 1, 1), notAfter: TestPKI.date(2040, 1, 1))

    /// A list trusting `logs`, each usable unless `configure` says otherwise.
    func list(_ logs: [CTTestLog], _ configure: (inout [CTLog]) -> Void = { _ in }) -> CTLogList {
        var entries = logs.map {
            CTLog(key: $0.key.spkiDER, operatorName: $0.operatorName, description: $0.description)
        }
        configure(&entries)
        return CTLogList(source: "test logs", logs: entries)
    }

    /// A leaf for www.example.com issued by the root with `scts` embedded.
    func leaf(
        _ scts: [EmbeddedSCTRequest], notBefore: Timestamp = TestPKI.now - .days(30), lifetime: Span = .days(365)
    ) throws -> Certificate {
        let b = TestPKI.leafBuilder(
            TestPKI.host, key: try TestPKI.sharedKey(.ecP256), notBefore: notBefore, lifetime: lifetime
        ) { _ in }
        return try b.signWithEmbeddedSCTs(scts, issuerKey: Self.root.key, issuer: Self.root.certificate)
    }

    /// SSL to www.example.com with the root as a system root.
    func systemSSL(_ logs: CTLogList, time: Timestamp = TestPKI.now) -> TrustSettings {
        var s = TestPKI.ssl(system: [Self.root.certificate], time: time)
        s.ctLogs = logs
        return s
    }

    func embedded(_ logs: [CTTestLog], at time: Timestamp = TestPKI.now - .days(30)) -> [EmbeddedSCTRequest] {
        logs.map { EmbeddedSCTRequest($0, at: time) }
    }

    func ct(_ e: Evaluation) throws -> CTAssessment {
        try XCTUnwrap(e.steps.first { $0.id == .certificateTransparency }?.finding.certificateTransparency)
    }

    // MARK: - Signatures and logs

    func testThreeEmbeddedSCTsWithValidSignaturesQualifyAOneYearLeafIssuedFrom2021() throws {
        let leaf = try leaf(embedded(Array(Self.logs[0..<3])))
        let e = try evaluate([leaf], systemSSL(list(Self.logs)))
        XCTAssertEqual(e.step(.certificateTransparency, 0)?.status, .passed)
        XCTAssertTrue(e.verdict.trusted, e.failureSummaries.joined(separator: ", "))
        XCTAssertTrue(e.verdict.certificateTransparency)
        let a = try ct(e)
        XCTAssertEqual(a.era, .fromApril2021)
        XCTAssertEqual(a.requiredEmbedded, 3)
        XCTAssertEqual(a.scts.map(\.outcome), [.verified, .verified, .verified])
        XCTAssertEqual(a.scts.map(\.logName), ["Test log 0", "Test log 1", "Test log 2"])
        XCTAssertEqual(a.scts.map(\.source), [.embedded, .embedded, .embedded])
    }

    func testTwoEmbeddedSCTsFailAOneYearLeafIssuedFrom2021AtASystemRoot() throws {
        let leaf = try leaf(embedded(Array(Self.logs[0..<2])))
        let e = try evaluate([leaf], systemSSL(list(Self.logs)))
        XCTAssertEqual(e.step(.certificateTransparency, 0)?.status, .failed)
        XCTAssertEqual(e.verdict.osstatus, -67825)
        XCTAssertFalse(e.verdict.certificateTransparency)
        XCTAssertEqual(try ct(e).qualifiedEmbeddedLogs, 2)
    }

    func testAnSCTWithAnInvalidSignatureDoesNotCount() throws {
        let stranger = try KeyPair.generate(.ecP256)
        var requests = embedded(Array(Self.logs[0..<3]))
        requests[1].signer = stranger
        let e = try evaluate([try leaf(requests)], systemSSL(list(Self.logs)))
        XCTAssertEqual(e.verdict.osstatus, -67825)
        XCTAssertEqual(try ct(e).scts.map(\.outcome), [.verified, .signatureInvalid, .verified])
    }

    func testAnSCTFromALogOutsideTheListDoesNotCount() throws {
        let e = try evaluate([try leaf(embedded(Array(Self.logs[0..<3])))], systemSSL(list(Array(Self.logs[0..<2]))))
        XCTAssertEqual(e.verdict.osstatus, -67825)
        XCTAssertEqual(try ct(e).scts.map(\.outcome), [.verified, .verified, .unknownLog])
    }

    func testAnSCTFromARejectedOrPendingLogDoesNotCount() throws {
        let logs = list(Self.logs) { $0[2].state = .rejected }
        let e = try evaluate([try leaf(embedded(Array(Self.logs[0..<3])))], systemSSL(logs))
        XCTAssertEqual(e.verdict.osstatus, -67825)
        XCTAssertEqual(try ct(e).scts[2].outcome, .logNotTrusted(.rejected))
    }

    func testAnSCTDatedAfterTheEvaluationTimeDoesNotCount() throws {
        let requests =
            embedded(Array(Self.logs[0..<2])) + [EmbeddedSCTRequest(Self.logs[2], at: TestPKI.now + .days(1))]
        let e = try evaluate([try leaf(requests)], systemSSL(list(Self.logs)))
        XCTAssertEqual(try ct(e).scts[2].outcome, .inTheFuture)
        XCTAssertEqual(e.verdict.osstatus, -67825)
    }

    // MARK: - Read-only and retired logs

    func testAReadOnlyLogsSCTCountsOnlyWhenDatedBeforeItBecameReadOnly() throws {
        let leaf = try leaf(embedded(Array(Self.logs[0..<3])))
        let before = list(Self.logs) { $0[0].readOnlyFrom = TestPKI.now - .days(10) }
        XCTAssertTrue(try evaluate([leaf], systemSSL(before)).verdict.certificateTransparency)
        let after = list(Self.logs) { $0[0].readOnlyFrom = TestPKI.now - .days(60) }
        let e = try evaluate([leaf], systemSSL(after))
        XCTAssertEqual(try ct(e).scts[0].outcome, .afterReadOnly(TestPKI.now - .days(60)))
        XCTAssertEqual(e.verdict.osstatus, -67825)
    }

    func testARetiredLogsEmbeddedSCTCountsWhenDatedAndIssuedBeforeRetirement() throws {
        let leaf = try leaf(embedded(Array(Self.logs[0..<3])))
        // Retired 10 days ago; SCTs and issuance 30 days ago: once qualified, 3 of 3.
        let retiredLater = list(Self.logs) { $0[0].retiredFrom = TestPKI.now - .days(10) }
        let e = try evaluate([leaf], systemSSL(retiredLater))
        XCTAssertTrue(e.verdict.certificateTransparency)
        XCTAssertEqual(try ct(e).qualifiedEmbeddedLogs, 3)
        // Retired 60 days ago, before its SCT: 2 of 3.
        let retiredBefore = list(Self.logs) { $0[0].retiredFrom = TestPKI.now - .days(60) }
        let f = try evaluate([leaf], systemSSL(retiredBefore))
        XCTAssertEqual(f.verdict.osstatus, -67825)
        XCTAssertEqual(try ct(f).qualifiedEmbeddedLogs, 2)
    }

    func testEmbeddedSCTsAllFromRetiredLogsNeverQualify() throws {
        let leaf = try leaf(embedded(Array(Self.logs[0..<3])))
        // Once qualified, every one, but none from a currently trusted log.
        let allRetired = list(Self.logs) { logs in for i in 0..<3 { logs[i].retiredFrom = TestPKI.now - .days(1) } }
        let e = try evaluate([leaf], systemSSL(allRetired))
        XCTAssertEqual(e.verdict.osstatus, -67825)
        XCTAssertEqual(try ct(e).scts.map(\.outcome), [.verified, .verified, .verified])
    }

    func testARetiredLogsSCTDeliveredInTheHandshakeDoesNotCount() throws {
        let leaf = try leaf([])
        var s = systemSSL(list(Self.logs) { $0[1].retiredFrom = TestPKI.now + .days(100) })
        s.presentedSCTs = try Self.logs[0..<2].map { try $0.sct(for: leaf, at: TestPKI.now - .days(1)).encoded }
        let e = try evaluate([leaf], s)
        XCTAssertEqual(try ct(e).scts.map(\.outcome), [.verified, .retiredLogDelivered])
        XCTAssertEqual(e.verdict.osstatus, -67825)
    }

    // MARK: - Operators

    func testThreeLogsOfOneOperatorQualifyBecauseTrustdCountsLogsNotOperators() throws {
        // Apple's published policy caps SCTs per operator, but trustd's code counts distinct logs
        // only (verify_tls_ct_policy); the report names the single operator.
        let leaf = try leaf(embedded(Self.oneOperatorLogs))
        let e = try evaluate([leaf], systemSSL(list(Self.oneOperatorLogs)))
        XCTAssertTrue(e.verdict.trusted)
        XCTAssertTrue(e.verdict.certificateTransparency)
        XCTAssertEqual(try ct(e).operators, ["Only Operator"])
        XCTAssertEqual(try ct(e).scts.compactMap(\.operatorName), Array(repeating: "Only Operator", count: 3))
    }

    // MARK: - Eras

    func testTwoEmbeddedSCTsQualifyAOneYearLeafIssuedBeforeApril2021() throws {
        let issued = TestPKI.date(2021, 3, 1)
        let leaf = try leaf(embedded(Array(Self.logs[0..<2]), at: issued), notBefore: issued)
        let e = try evaluate([leaf], systemSSL(list(Self.logs), time: TestPKI.date(2021, 6, 1)))
        XCTAssertEqual(try ct(e).era, .beforeApril2021)
        XCTAssertEqual(try ct(e).requiredEmbedded, 2)
        XCTAssertTrue(e.verdict.trusted, e.failureSummaries.joined(separator: ", "))
        XCTAssertTrue(e.verdict.certificateTransparency)
    }

    func testTwoEmbeddedSCTsQualifyALeafOf180DaysIssuedFromApril2021() throws {
        let leaf = try leaf(embedded(Array(Self.logs[0..<2])), lifetime: .days(180))
        let e = try evaluate([leaf], systemSSL(list(Self.logs)))
        XCTAssertEqual(try ct(e).requiredEmbedded, 2)
        XCTAssertTrue(e.verdict.certificateTransparency)
    }

    func testEachErasLifetimeTableGivesTrustdsCount() throws {
        func required(_ notBefore: Timestamp, _ notAfter: Timestamp) throws -> Int {
            var b = CertificateBuilder(
                subject: TestPKI.name("x"), publicKey: try TestPKI.sharedKey(.ecP256), notBefore: notBefore,
                notAfter: notAfter)
            b.basicConstraints = nil
            let c = try b.selfSign(key: try TestPKI.sharedKey(.ecP256))
            return CTPolicy.requiredEmbedded(c, era: notBefore < CTPolicy.april2021 ? .beforeApril2021 : .fromApril2021)
        }
        let d = TestPKI.date
        // Before 2021-04-21, whole calendar months: under 15 → 2, 15...27 → 3, 28...39 → 4, 40+ → 5.
        XCTAssertEqual(try required(d(2019, 1, 15, 0), d(2020, 4, 14, 23)), 2)  // 14 months and a bit
        XCTAssertEqual(try required(d(2019, 1, 15, 0), d(2020, 4, 15, 0)), 3)  // 15 months
        XCTAssertEqual(try required(d(2019, 1, 15, 0), d(2021, 4, 15, 0)), 3)  // 27 months
        XCTAssertEqual(try required(d(2019, 1, 15, 0), d(2021, 5, 15, 0)), 4)  // 28 months
        XCTAssertEqual(try required(d(2019, 1, 15, 0), d(2022, 4, 15, 0)), 4)  // 39 months
        XCTAssertEqual(try required(d(2019, 1, 15, 0), d(2022, 5, 15, 0)), 5)  // 40 months
        // From 2021-04-21, days: up to 180 → 2, up to 825 → 3, more → 4.
        let start = d(2021, 4, 21, 0)
        XCTAssertEqual(try required(start, start + .days(180)), 2)
        XCTAssertEqual(try required(start, start + .days(180) + .seconds(1)), 3)
        XCTAssertEqual(try required(start, start + .days(825)), 3)
        XCTAssertEqual(try required(start, start + .days(826)), 4)
    }

    // MARK: - Delivered SCTs

    func testTwoSCTsInTheTLSExtensionQualifyTheLeaf() throws {
        let leaf = try leaf([])
        var s = systemSSL(list(Self.logs))
        s.presentedSCTs = try Self.logs[0..<2].map { try $0.sct(for: leaf, at: TestPKI.now - .days(1)).encoded }
        let e = try evaluate([leaf], s)
        XCTAssertTrue(e.verdict.trusted, e.failureSummaries.joined(separator: ", "))
        XCTAssertTrue(e.verdict.certificateTransparency)
        XCTAssertEqual(try ct(e).scts.map(\.source), [.tlsExtension, .tlsExtension])
    }

    func testOneSCTInTheTLSExtensionIsNotEnough() throws {
        let leaf = try leaf([])
        var s = systemSSL(list(Self.logs))
        s.presentedSCTs = [try Self.logs[0].sct(for: leaf, at: TestPKI.now - .days(1)).encoded]
        XCTAssertEqual(try evaluate([leaf], s).verdict.osstatus, -67825)
    }

    func testTwoSCTsInAStapledOCSPResponseQualifyTheLeaf() throws {
        let leaf = try leaf([])
        var ocsp = OCSPResponseBuilder(
            status: .good, thisUpdate: TestPKI.now - .hours(1), nextUpdate: TestPKI.now + .days(3))
        ocsp.signedCertificateTimestamps = try Self.logs[2..<4].map {
            try $0.sct(for: leaf, at: TestPKI.now - .days(1))
        }
        var s = systemSSL(list(Self.logs))
        s.stapledOCSPResponse = try ocsp.sign(
            certificate: leaf, issuer: Self.root.certificate, key: Self.root.key)
        let e = try evaluate([leaf], s)
        XCTAssertTrue(e.verdict.certificateTransparency, e.failureSummaries.joined(separator: ", "))
        XCTAssertEqual(try ct(e).scts.map(\.source), [.ocspResponse, .ocspResponse])
        XCTAssertEqual(try ct(e).scts.map(\.logName), ["Test log 2", "Test log 3"])
    }

    func testATruncatedOCSPResponseAndAnUnreadableSCTAreIgnored() throws {
        let leaf = try leaf(embedded(Array(Self.logs[0..<3])))
        var ocsp = OCSPResponseBuilder(
            status: .good, thisUpdate: TestPKI.now - .hours(1), nextUpdate: TestPKI.now + .days(3))
        ocsp.signedCertificateTimestamps = [try Self.logs[3].sct(for: leaf, at: TestPKI.now - .days(1))]
        let full = try ocsp.sign(certificate: leaf, issuer: Self.root.certificate, key: Self.root.key)
        var s = systemSSL(list(Self.logs))
        s.stapledOCSPResponse = Array(full.prefix(full.count / 2))
        s.presentedSCTs = [[0, 1, 2]]
        let e = try evaluate([leaf], s)
        XCTAssertTrue(e.verdict.trusted, e.failureSummaries.joined(separator: ", "))
        let a = try ct(e)
        XCTAssertEqual(a.scts.filter { $0.source == .ocspResponse }.count, 0)
        XCTAssertEqual(a.scts.last?.outcome, .unreadable("shorter than an SCT's 43 fixed bytes"))
    }

    // MARK: - Where CT is enforced, and where it is only computed

    func testCTIsComputedUnderBasicX509WithACustomAnchorWithoutBeingEnforced() throws {
        let qualified = try leaf(embedded(Array(Self.logs[0..<3])))
        var s = TestPKI.basic(anchors: [Self.root.certificate])
        s.ctLogs = list(Self.logs)
        let e = try evaluate([qualified], s)
        XCTAssertEqual(e.step(.certificateTransparency, 0)?.status, .skipped("only Apple's SSL policy requires CT"))
        XCTAssertTrue(e.verdict.trusted)
        XCTAssertTrue(e.verdict.certificateTransparency)
        let bare = try evaluate([try leaf([])], s)
        XCTAssertTrue(bare.verdict.trusted)
        XCTAssertFalse(bare.verdict.certificateTransparency)
    }

    func testALeafIssuedBeforeOctober16th2018IsNotRequiredToHaveSCTs() throws {
        let issued = TestPKI.date(2018, 10, 15)
        let leaf = try leaf([], notBefore: issued, lifetime: .days(365))
        let e = try evaluate([leaf], systemSSL(list(Self.logs), time: TestPKI.date(2019, 1, 1)))
        XCTAssertEqual(e.step(.certificateTransparency, 0)?.status, .notApplicable)
        XCTAssertTrue(e.verdict.trusted, e.failureSummaries.joined(separator: ", "))
    }

    // MARK: - Work

    func testEachSCTSignatureIsVerifiedOnceAndAWarmReevaluationVerifiesNone() throws {
        let leaf = try leaf(embedded(Array(Self.logs[0..<3])))
        let withLogs = systemSSL(list(Self.logs))
        let withoutLogs = systemSSL(list([]))
        let cold = Evaluator()
        _ = cold.evaluate(chain: [leaf], settings: withoutLogs)
        let withoutSCTChecks = cold.cache.verificationCount
        let warm = Evaluator()
        _ = warm.evaluate(chain: [leaf], settings: withLogs)
        // Three SCTs from three trusted logs: three more verifications, no more.
        XCTAssertEqual(warm.cache.verificationCount, withoutSCTChecks + 3)
        var toggled = withLogs
        toggled.policy = .basicX509
        let again = try XCTUnwrap(warm.evaluate(chain: [leaf], settings: toggled))
        XCTAssertEqual(warm.cache.verificationCount, withoutSCTChecks + 3)
        XCTAssertTrue(again.verdict.certificateTransparency)
    }

    // MARK: - Apple's compiled list

    func testTheCompiledAppleLogListMatchesItsRecordedDigestAndTag() {
        let lines = AppleCTLogs.logs.map(\.canonicalLine).joined(separator: "\n")
        XCTAssertEqual(hexString(Digest.sha256(Array(lines.utf8))), AppleCTLogs.dataSHA256)
        XCTAssertEqual(AppleCTLogs.tag, AppleTrustDataSource.tag)
    }

    func testEveryCompiledAppleLogIDIsTheSHA256OfItsKey() {
        // security_certificates-55349.0.11's log_list.json: 132 logs (127 + 5 tiled) of 15
        // operators; 32 usable, 13 qualified, 4 retired, 81 rejected, 2 pending.
        let list = CTLogList.apple
        XCTAssertEqual(list.logs.count, 132)
        XCTAssertEqual(Set(list.logs.map(\.operatorName)).count, 15)
        XCTAssertEqual(list.trustedCount, 49)
        XCTAssertEqual(list.logs.filter { $0.state == .retired }.count, 4)
        for log in list.logs { XCTAssertEqual(Digest.sha256(log.key), log.logID, log.description) }
    }
}
