import CTModel
import PathRules
import SuiteFixtures
import Testing
import TrustBuilder
import TrustCore
import TrustSupport
import TrustTimeline
import TrustX509

/// The candidates besides the certificates' dates, read from what the evaluation carries: the
/// SCTs' timestamps and the dates of the logs that signed them (CertificateTransparency.m's
/// isSCTValidForLogData compares them), and the root's early expiry 60 days before its notAfter
/// for Safari (SecPolicyServer.c, _ShouldApplyEarlyExpirationCheck).
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

    /// Safari's early anchor expiry: for `--client safari` a root valid for more than 120 days is
    /// judged 60 days later (SecPolicyServer.c, _ShouldApplyEarlyExpirationCheck), so a chain
    /// whose root expires first fails 60 days before the root's notAfter (one second after
    /// notAfter less 60 days: judged at time + 60 days, it is expired once that passes notAfter);
    /// an app's evaluation fails one second after the notAfter itself (RFC 5280 4.1.2.5).
    @Test func testSafarisTimelineFailsSixtyDaysBeforeTheRootsNotAfter() throws {
        let root = try TestPKI.root(notBefore: TestPKI.now - .days(365), notAfter: TestPKI.now + .days(200))
        let leaf = try TestPKI.leaf(issuer: root, notBefore: TestPKI.now - .days(30), lifetime: .days(365))
        var settings = TrustSettings(anchors: [root.certificate], policy: .ssl(host: TestPKI.host), time: TestPKI.now)
        let app = try #require(Evaluator().evaluate(chain: [leaf.certificate], settings: settings))
        let appFailure = try #require(Timeline.make(app).nextFailure)
        #expect(appFailure.at == root.certificate.notAfter + .seconds(1))
        #expect(appFailure.osstatus == -67818)
        settings.client = .safari
        let safari = try #require(Evaluator().evaluate(chain: [leaf.certificate], settings: settings))
        #expect(safari.verdict.trusted)
        let timeline = Timeline.make(safari)
        let failure = try #require(timeline.nextFailure)
        #expect(failure.at == root.certificate.notAfter - .days(60) + .seconds(1))
        #expect(failure.osstatus == -67818)
        #expect(failure.causes.map(\.kind) == [.earlyAnchorExpiry])
        #expect(timeline.failsWithin(days: 141) == failure, "140 days and a second away")
        #expect(timeline.failsWithin(days: 140) == nil)
    }

    @Test func testNoEarlyExpiryCandidateForAnAppOrADeviceAnchor() throws {
        let root = try TestPKI.root(notBefore: TestPKI.now - .days(365), notAfter: TestPKI.now + .days(3650))
        let leaf = try TestPKI.leaf(issuer: root)
        var settings = TrustSettings(anchors: [root.certificate], policy: .ssl(host: TestPKI.host), time: TestPKI.now)
        let app = try #require(Evaluator().evaluate(chain: [leaf.certificate], settings: settings))
        #expect(TimelineBoundaries.collect(app).filter { $0.kind == .earlyAnchorExpiry }.isEmpty)
        settings.client = .safari
        settings.customAnchorClass = .device
        let device = try #require(Evaluator().evaluate(chain: [leaf.certificate], settings: settings))
        #expect(device.path.anchorClass == .device)
        #expect(TimelineBoundaries.collect(device).filter { $0.kind == .earlyAnchorExpiry }.isEmpty)
    }
}
