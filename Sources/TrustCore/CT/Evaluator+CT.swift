extension Evaluator {
    /// trustd sets kSecTrustCertificateTransparency when the path is CT-qualified and the
    /// evaluation's result is good (Security, trust/trustd/SecTrustServer.c, the CT marker set
    /// with SecPathBuilderIsOkResult): a failure of the app's own pin check or of ATS, which are
    /// not SecTrust's, does not clear it.
    static func isCertificateTransparent(_ steps: [Step]) -> Bool {
        guard steps.contains(where: { $0.finding.certificateTransparency?.qualified == true }) else { return false }
        return !steps.contains { $0.status == .failed && $0.id != .pin && $0.finding.atsFailure == nil }
    }
}
