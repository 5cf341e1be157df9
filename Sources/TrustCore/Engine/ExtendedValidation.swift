import AppleTrustData
import PathRules
import TrustSupport
import TrustX509

/// kSecTrustExtendedValidation, as trustd decides it: the certificate rules of `SecPolicyCheckEV`
/// (PathRules' `ExtendedValidationRules`), the CT condition `SecPVCPathChecks` adds, and the
/// revocation answer `SecPathBuilderReportResult` (trust/trustd/SecTrustServer.c) asks for.
enum ExtendedValidation {
    /// The outcome: EV or not and, when the anchor is a root the EV table lists but the path is
    /// not EV, why not (nil when the anchor is no EV root at all: nothing to explain).
    struct Outcome: Equatable {
        var isEV: Bool
        var failure: String?
    }

    /// Assesses `path`, whose `steps` are complete; `transparent` is the verdict's
    /// kSecTrustCertificateTransparency.
    static func assess(path: BuiltPath, steps: [Step], settings: TrustSettings, transparent: Bool) -> Outcome {
        let certs = path.certificates
        guard path.anchorClass == .system, certs.count >= 2, let root = certs.last else {
            return Outcome(isEV: false, failure: nil)
        }
        let table = settings.evRoots ?? AppleEVRoots.policies
        let rootKey = hexString(root.sha256).uppercased()
        guard let rootPolicies = table[rootKey].map(Set.init), !rootPolicies.isEmpty else {
            return Outcome(isEV: false, failure: nil)
        }
        if let why = ExtendedValidationRules.pathFailure(certs, rootPolicies: rootPolicies)
            ?? resultFailure(
                certs, steps: steps, transparent: transparent)
        {
            return Outcome(isEV: false, failure: why)
        }
        return Outcome(isEV: true, failure: nil)
    }

    /// The conditions on the evaluation's result: trusted by SecTrust, CT-qualified, and a
    /// positive revocation answer for every certificate below the anchor. trustd waives the last
    /// only in its variants without network access; an iPhone has network, so a check without
    /// OCSP or CRLs is not EV.
    static func resultFailure(_ certs: [Certificate], steps: [Step], transparent: Bool) -> String? {
        let secTrustFailed = steps.contains { $0.status == .failed && $0.id != .pin && $0.finding.atsFailure == nil }
        if secTrustFailed { return "the evaluation failed" }
        if !transparent { return "the path is not CT-qualified" }
        for i in 0..<(certs.count - 1) {
            let positive = steps.contains { $0.id == .revocation && $0.certificate == i && $0.status == .passed }
            if !positive { return "certificate \(i) has no positive revocation answer (OCSP or CRL)" }
        }
        return nil
    }
}
