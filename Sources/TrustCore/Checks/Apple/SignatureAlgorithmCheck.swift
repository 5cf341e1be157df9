import TrustX509

/// `signature-algorithm`: no MD2/4/5 anywhere, no SHA-1 under SSL, except on self-signed certificates
/// (and, for SHA-1, on a device-trusted anchor).
struct SignatureAlgorithmCheck: PathCheck {
    /// Whether SHA-1 fails below a self-signed certificate (Apple SignatureHashAlgorithms under
    /// SSL; the webpki profile); MD2, MD4 and MD5 fail under every policy (WeakSignature).
    let rejectsSHA1: Bool
    /// Apple: the device-trusted anchor's own SHA-1 signature is not judged.
    let deviceAnchorExempt: Bool

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        for (i, cert) in c.certificates.enumerated() {
            let alg = cert.signatureAlgorithm
            let name = alg.name
            let selfSigned = cert.isSelfIssued && (i == c.count - 1)
            let weak = alg.oid == .md5WithRSA || alg.oid == .md2WithRSA || alg.oid == .md4WithRSA
            let sha1 = alg.oid == .sha1WithRSA || alg.oid == .ecdsaWithSHA1 || alg.oid == .dsaWithSHA1
            if (weak || sha1) && selfSigned {
                steps.append(
                    Step(.signatureAlgorithm, i, .passed, SignatureAlgorithmFinding.selfSignedHashExempt(name: name)))
            } else if weak {
                steps.append(Step(.signatureAlgorithm, i, .failed, SignatureAlgorithmFinding.weakSignature(name: name)))
            } else if sha1 && deviceAnchorExempt && c.endsAtDeviceAnchor && c.isAnchor(i) {
                // trustd drops the device-trusted anchor from SignatureHashAlgorithms (not from
                // WeakSignature); a self-signed one was exempt already.
                steps.append(
                    Step(
                        .signatureAlgorithm, i,
                        CheckContext.deviceAnchorReason("the hash of its own signature is not judged"),
                        SignatureAlgorithmFinding.signatureHashDeviceAnchorExempt(name: name)))
            } else if sha1 && rejectsSHA1 {
                steps.append(Step(.signatureAlgorithm, i, .failed, SignatureAlgorithmFinding.sha1Signature(name: name)))
            } else {
                steps.append(
                    Step(.signatureAlgorithm, i, .passed, SignatureAlgorithmFinding.signatureAlgorithmOK(name: name)))
            }
        }
    }
}
