import CTModel
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

    /// SHA-256 of Apple's own roots, which trustd exempts from the requirement (Security,
    /// OSX/utilities/SecAppleAnchor.c, SecGetAppleTrustAnchors): Apple Root CA, Apple Root CA -
    /// G2, G3, and the Apple Platform Backport RSA and ECC Root CA - G1.
    static let appleAnchors: Set<String> = [
        "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024",
        "c2b9b042dd57830e7d117dac55ac8ae19407d38e41d88f3215bc3a890444a050",
        "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179",
        "fb3f6cf69467b5fa9ffa2b3b392b6e5e775bbb09c77b6e759e9038e26bbf9049",
        "eda23b3f224f45e0952f20e4d2b33e000d49c8044c1168de47b443cd2b3536dc",
    ]

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        var work = EvaluationWork(cache: c.cache, budget: budget)
        let ct = CTPolicy.assess(
            certificates: c.certificates, ctLogs: c.settings.ctLogs, presentedSCTs: c.settings.presentedSCTs,
            stapledOCSPResponse: c.settings.stapledOCSPResponse, time: c.settings.time, work: &work)
        budget = work.budget
        func notEnforced(_ status: StepStatus, _ reason: String) {
            steps.append(
                Step(
                    .certificateTransparency, 0, status,
                    CertificateTransparencyFinding.ctNotRequired(reason: reason, ct)))
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
        guard !Self.appleAnchors.contains(hexString(root.sha256)) else {
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
