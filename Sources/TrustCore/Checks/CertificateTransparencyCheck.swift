import TrustSupport
import TrustX509

/// `certificate-transparency`: Apple's CT policy for chains to system roots (SystemTrustedCTRequired).
/// The SCT list and the CT poison are read but not enforced as extensions: a critical one stays
/// unknown, as in Apple's parser (a precertificate is not a certificate to trust).
struct CertificateTransparencyCheck: PathCheck {
    /// Whether the policy requires CT at all (Apple's SSL policy does; Basic X.509 and the webpki
    /// profile do not).
    let required: Bool

    /// Apple enforces CT for certificates issued from this date (support article HT205280/103214).
    static let enforcedFrom = Timestamp(year: 2018, month: 10, day: 15)!
    static let shortLifetime: Int64 = 180 * 86_400

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        guard required else {
            steps.append(
                Step(
                    .certificateTransparency, 0, .skipped("only Apple's SSL policy requires CT"),
                    CertificateTransparencyFinding.ctNotRequired(
                        reason: "Basic X.509 (and the webpki profile) do not require Certificate Transparency.")))
            return
        }
        guard c.path.anchorClass == .system else {
            steps.append(
                Step(
                    .certificateTransparency, 0, .notApplicable,
                    CertificateTransparencyFinding.ctNotRequired(
                        reason:
                            "Certificate Transparency is required only for chains to system roots; custom anchors are exempt."
                    )))
            return
        }
        let leaf = c.certificates[0]
        guard leaf.notBefore >= Self.enforcedFrom else {
            steps.append(
                Step(
                    .certificateTransparency, 0, .notApplicable,
                    CertificateTransparencyFinding.ctNotRequired(
                        reason: "Leaves issued before 2018-10-15 are exempt from Apple's CT policy.")))
            return
        }
        var embedded = Set<[UInt8]>()
        for ext in leaf.extensions {
            if case .signedCertificateTimestamps(let scts) = ext.decoded { for s in scts { embedded.insert(s.logID) } }
        }
        let transport = Set(c.settings.connectionSCTLogIDs)
        let lifetime = leaf.notAfter.secondsSinceEpoch - leaf.notBefore.secondsSinceEpoch
        let requiredEmbedded = lifetime <= Self.shortLifetime ? 2 : 3
        if transport.count >= 2 {
            steps.append(
                Step(
                    .certificateTransparency, 0, .passed,
                    CertificateTransparencyFinding.ctSatisfied(logs: transport.count, required: 2)))
        } else if embedded.count >= requiredEmbedded {
            steps.append(
                Step(
                    .certificateTransparency, 0, .passed,
                    CertificateTransparencyFinding.ctSatisfied(logs: embedded.count, required: requiredEmbedded)))
        } else {
            steps.append(
                Step(
                    .certificateTransparency, 0, .failed,
                    CertificateTransparencyFinding.ctMissing(
                        logs: max(embedded.count, transport.count), required: requiredEmbedded)))
        }
    }
}
