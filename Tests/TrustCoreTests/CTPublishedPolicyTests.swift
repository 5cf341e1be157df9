import AppleTrustData
import SuiteFixtures
import TrustSupport
import XCTest

@testable import CTModel
@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// Apple's published CT policy beside trustd's code, as advice that never changes the verdict.
/// The expected values are the page's (support.apple.com/103214, read 2026-12-06): "At least one
/// SCT must be issued from a log compliant with RFC 6962"; embedded SCTs by certificate lifetime,
/// 180 days or less: 2 from distinct logs, at most 1 per log operator counting; 181 to 398 days: 3,
/// at most 2 per operator. trustd's code (CertificateTransparency.m) counts distinct logs only.
final class CTPublishedPolicyTests: XCTestCase {
    /// Five logs, each its own operator.
    static let logs = CertificateTransparencyTests.logs
    /// Three logs of one operator.
    static let oneOperatorLogs = CertificateTransparencyTests.oneOperatorLogs
    static let root = CertificateTransparencyTests.root

    func list(_ logs: [CTTestLog], tiled: Set<Int> = []) -> CTLogList {
        CTLogList(
            source: "test logs",
            logs: logs.enumerated().map { i, l in
                CTLog(
                    key: l.key.spkiDER, operatorName: l.operatorName, description: l.description,
                    tiled: tiled.contains(i))
            })
    }

    func leaf(_ logs: [CTTestLog], lifetime: Span = .days(365)) throws -> Certificate {
        let b = TestPKI.leafBuilder(
            TestPKI.host, key: try TestPKI.sharedKey(.ecP256), notBefore: TestPKI.now - .days(30), lifetime: lifetime
        ) { _ in }
        return try b.signWithEmbeddedSCTs(
            logs.map { EmbeddedSCTRequest($0, at: TestPKI.now - .days(30)) }, issuerKey: Self.root.key,
            issuer: Self.root.certificate)
    }

    /// The verdict and the CT assessment of `leaf` at the root as a system root, SSL.
    func evaluate(_ leaf: Certificate, _ logs: CTLogList, presented: [[UInt8]] = []) throws -> (
        Evaluation, CTAssessment
    ) {
        var s = TestPKI.ssl(system: [Self.root.certificate], time: TestPKI.now)
        s.ctLogs = logs
        s.presentedSCTs = presented
        let e = try XCTUnwrap(Evaluator().evaluate(chain: [leaf], settings: s))
        let a = try XCTUnwrap(e.steps.first { $0.id == .certificateTransparency }?.finding.certificateTransparency)
        return (e, a)
    }

    func testThreeLogsOfOneOperatorPassTrustdButThePageCountsTwoOfThem() throws {
        let all = Self.oneOperatorLogs + Self.logs
        let (e, a) = try evaluate(try leaf(Self.oneOperatorLogs), list(all))
        XCTAssertTrue(e.verdict.trusted, "advice never changes the verdict")
        XCTAssertEqual(e.step(.certificateTransparency, 0)?.status, .passed)
        XCTAssertEqual(a.publishedPolicyAdvice.map(\.kind), [.operatorCap])
        // 181 to 398 days: 3 needed, at most 2 per operator count.
        XCTAssertTrue(a.publishedPolicyAdvice[0].message.contains("at most 2 embedded SCTs per log operator"))
        XCTAssertTrue(a.publishedPolicyAdvice[0].message.contains("count as 2 (Only Operator: 3)"))
    }

    func testTwoLogsOfOneOperatorAndOneOfAnotherMeetTheCap() throws {
        let chosen = [Self.oneOperatorLogs[0], Self.oneOperatorLogs[1], Self.logs[0]]
        let (e, a) = try evaluate(try leaf(chosen), list(Self.oneOperatorLogs + Self.logs))
        XCTAssertTrue(e.verdict.trusted)
        XCTAssertEqual(a.publishedPolicyAdvice, [])
    }

    func testALeafOf180DaysWithTwoLogsOfOneOperatorCountsOne() throws {
        let (e, a) = try evaluate(
            try leaf(Array(Self.oneOperatorLogs[0..<2]), lifetime: .days(180)), list(Self.oneOperatorLogs))
        XCTAssertTrue(e.verdict.trusted)
        XCTAssertEqual(a.requiredEmbedded, 2)
        // 180 days or less: 2 needed, at most 1 per operator counts.
        XCTAssertEqual(a.publishedPolicyAdvice.map(\.kind), [.operatorCap])
        XCTAssertTrue(a.publishedPolicyAdvice[0].message.contains("at most 1 embedded SCT per log operator"))
        let (_, other) = try evaluate(try leaf(Array(Self.logs[0..<2]), lifetime: .days(180)), list(Self.logs))
        XCTAssertEqual(other.publishedPolicyAdvice, [])
    }

    func testSCTsOnlyFromTiledLogsLackAnRFC6962Log() throws {
        let chosen = Array(Self.logs[0..<3])
        let (e, a) = try evaluate(try leaf(chosen), list(Self.logs, tiled: [0, 1, 2]))
        XCTAssertTrue(e.verdict.trusted)
        XCTAssertEqual(a.publishedPolicyAdvice.map(\.kind), [.noRFC6962Log])
        let (_, mixed) = try evaluate(try leaf(chosen), list(Self.logs, tiled: [0, 1]))
        XCTAssertEqual(mixed.publishedPolicyAdvice, [])
    }

    func testNoAdviceForAPathTrustdDoesNotQualify() throws {
        let (e, a) = try evaluate(try leaf(Array(Self.oneOperatorLogs[0..<2])), list(Self.oneOperatorLogs))
        XCTAssertEqual(e.verdict.osstatus, -67825)
        XCTAssertEqual(a.publishedPolicyAdvice, [])
    }

    func testDeliveredSCTsFromOneOperatorAreNotCappedByTheEmbeddedTable() throws {
        let leaf = try leaf([])
        let delivered = try Self.oneOperatorLogs[0..<2].map {
            try $0.sct(for: leaf, at: TestPKI.now - .days(1)).encoded
        }
        let (e, a) = try evaluate(leaf, list(Self.oneOperatorLogs), presented: delivered)
        XCTAssertTrue(e.verdict.trusted)
        XCTAssertEqual(a.qualifiedBy, .tlsExtension)
        XCTAssertEqual(a.publishedPolicyAdvice, [])
    }

    func testTheListsTiledLogsAreKnownAsSuch() throws {
        // security_certificates-55349.0.11's log_list.json lists five tiled logs, Geomys's
        // Tuscolo2025h2 to Tuscolo2027h2; every other log is under `logs`.
        let tiled = CTLogList.apple.logs.filter(\.tiled)
        XCTAssertEqual(tiled.count, 5)
        XCTAssertEqual(Set(tiled.map(\.operatorName)), ["Geomys"])
        let json = """
            {"operators": [{"name": "O", "logs": [{"key": "\(Base64.encode(Self.logs[0].key.spkiDER))",
             "state": {"usable": {"timestamp": "2020-01-01T00:00:00Z"}}}],
             "tiled_logs": [{"key": "\(Base64.encode(Self.logs[1].key.spkiDER))",
             "state": {"usable": {"timestamp": "2020-01-01T00:00:00Z"}}}]}]}
            """
        let read = try CTLogListReader.read(Array(json.utf8), source: "test")
        XCTAssertEqual(read.logs.map(\.tiled), [false, true])
    }
}
