import CTModel
import SuiteFixtures
import Testing
import TrustBuilder
import TrustCore
import TrustSupport
import TrustTimeline
import TrustX509

/// The candidates besides the certificates' dates, read from what the evaluation carries: the
/// SCTs' timestamps and the dates of the logs that signed them (CertificateTransparency.m's
/// isSCTValidForLogData compares them), and the anchor's early expiry 60 days before its
/// notAfter for a system root valid more than 120 days (SecPolicyServer.c,
/// _ShouldApplyEarlyExpirationCheck).
@Suite struct TimelineCandidateTests {
    @Test func testTheSCTsAndTheirLogsDatesAreCandidates() throws {
        let root = try TestPKI.root()
        let (a, b) = (try CTTestLog("Test Log A", operatorName: "A"), try CTTestLog("Test Log B", operatorName: "B"))
        let issued = TestPKI.now - .days(10)
        let retired = TestPKI.now + .days(100)
        let builder = TestPKI.leafBuilder(
            TestPKI.host, key: try TestPKI.sharedKey(.ecP256), notBefore: issued, lifetime: .days(90)
        ) { _ in }
        let leaf = try builder.signWithEmbeddedSCTs(
            [EmbeddedSCTRequest(a, at: issued), EmbeddedSCTRequest(b, at: issued + .hours(1))], issuerKey: root.key,
            issuer: root.certificate)
        var settings = TrustSettings(anchors: [root.certificate], policy: .ssl(host: TestPKI.host), time: TestPKI.now)
        settings.ctLogs = CTLogList(
            source: "test",
            logs: [
                CTLog(key: a.key.spkiDER, operatorName: "A", description: "Test Log A", retiredFrom: retired),
                CTLog(key: b.key.spkiDER, operatorName: "B", description: "Test Log B"),
            ])
        let evaluation = try #require(Evaluator().evaluate(chain: [leaf], settings: settings))
        let timeline = Timeline.make(evaluation)
        let candidates = timeline.boundaries.filter { $0.kind == .sctTimestamp || $0.kind == .ctLogState }
        #expect(Set(candidates.filter { $0.kind == .sctTimestamp }.map(\.instant)) == [issued, issued + .hours(1)])
        #expect(candidates.filter { $0.kind == .ctLogState }.map(\.instant) == [retired])
        // Two evaluations per candidate at most, and one at the evaluation time.
        #expect(timeline.evaluations <= 2 * timeline.boundaries.count + 1)
        #expect(timeline.incomplete == nil)
    }

    @Test func testAnEarlyExpiryCandidateIsTakenForALongLivedSystemRootOnly() throws {
        let root = try TestPKI.root(notBefore: TestPKI.now - .days(365), notAfter: TestPKI.now + .days(3650))
        let leaf = try TestPKI.leaf(issuer: root)
        let store = TestStore(roots: [root.certificate])
        let settings = TrustSettings(systemStore: store, policy: .ssl(host: TestPKI.host), time: TestPKI.now)
        let system = try #require(Evaluator().evaluate(chain: [leaf.certificate], settings: settings))
        #expect(system.path.anchorClass == .system)
        let early = TimelineBoundaries.collect(system).filter { $0.kind == .earlyAnchorExpiry }
        #expect(early.map(\.instant) == [root.certificate.notAfter - .days(60)])
        var custom = settings
        custom.anchors = [root.certificate]
        let app = try #require(Evaluator().evaluate(chain: [leaf.certificate], settings: custom))
        #expect(TimelineBoundaries.collect(app).filter { $0.kind == .earlyAnchorExpiry }.isEmpty)
    }
}
