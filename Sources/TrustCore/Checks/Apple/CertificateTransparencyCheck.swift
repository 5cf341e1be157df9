import CTModel
import PathRules
import TrustSupport
import TrustX509

/// `certificate-transparency`: trustd's CT policy, run on every path (SecPolicyCheckCT, whose
/// result is kSecTrustCertificateTransparency), and enforced where trustd enforces it
/// (Security, trust/trustd/SecPolicyServer.c, SecPolicyCheckSystemTrustedCTRequired): the SSL
/// policy, a leaf issued from 2018-10-16 and valid now, a path anchored at a system root that is
/// not one of Apple's own. The SCT list and the CT poison are read but not enforced as
/// extensions: a critical one stays unknown, as in Apple's parser.
struct CertificateTransparencyCheck: PathCheck {
    /// Whether the policy enforces CT (Apple's SSL policy does; Basic X.509 and the webpki
    /// profile do not, though the path's CT result is still computed).
    let required: Bool

    /// trustd enforces CT for leaves issued from 2018-10-16T00:00:00Z (561340800 in CFAbsoluteTime).
    static let enforcedFrom = Timestamp(year: 2018, month: 10, day: 16)!

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        var work = EvaluationWork(cache: c.cache, budget: budget)
        let ct = CTPolicy.assess(
            certificates: c.certificates, ctLogs: c.settings.ctLogs, presentedSCTs: c.settings.presentedSCTs,
            stapledOCSPResponse: c.settings.stapledOCSPResponse, time: c.settings.time, work: &work)
        budget = work.budget
        func notEnforced(_ status: StepStatus, _ reason: String) {
            let finding = CertificateTransparencyFinding.ctNotRequired(reason: reason, ct)
            steps.append(Step(.certificateTransparency, 0, status, finding))
        }
        guard required else {
            return notEnforced(
                .skipped("only Apple's SSL policy requires CT"),
                "Basic X.509 (and the webpki profile) do not require Certificate Transparency.")
        }
        let root = c.certificates[c.count - 1]
        guard c.path.isAnchored, c.path.anchorClass == .system else {
            return notEnforced(
                .notApplicable,
                "Certificate Transparency is required only for chains to system roots; custom anchors are exempt.")
        }
        guard !SystemPinning.appleAnchors.contains(hexString(root.sha256)) else {
            return notEnforced(.notApplicable, "Chains to Apple's own roots are exempt from the CT requirement.")
        }
        let leaf = c.certificates[0]
        guard leaf.notBefore >= Self.enforcedFrom else {
            return notEnforced(
                .notApplicable, "Leaves issued before 2018-10-16 are exempt from Apple's CT requirement.")
        }
        guard leaf.notBefore <= c.settings.time && c.settings.time <= leaf.notAfter else {
            return notEnforced(
                .notApplicable,
                "trustd requires CT only of a leaf valid at the evaluation time (the validity step reports this one).")
        }
        let finding: CertificateTransparencyFinding = ct.qualified ? .ctSatisfied(ct) : .ctMissing(ct)
        steps.append(Step(.certificateTransparency, 0, ct.qualified ? .passed : .failed, finding))
    }
}
