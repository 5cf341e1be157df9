import TrustX509

/// `signature-algorithm`: no MD2/4/5 anywhere, no SHA-1 under SSL, except on self-signed certificates
/// (and, for SHA-1, on a device-trusted anchor).
enum SignatureAlgorithmCheck: PathCheck {
    static let enforcedExtensions: Set<OID> = []

    static func run(_ c: CheckContext, into steps: inout [Step]) {
        for (i, cert) in c.certificates.enumerated() {
            let alg = cert.signatureAlgorithm
            let name = alg.name
            let selfSigned = cert.isSelfIssued && (i == c.count - 1)
            let weak = alg.oid == .md5WithRSA || alg.oid == .md2WithRSA || alg.oid == .md4WithRSA
            let sha1 = alg.oid == .sha1WithRSA || alg.oid == .ecdsaWithSHA1 || alg.oid == .dsaWithSHA1
            if (weak || sha1) && selfSigned {
                steps.append(Step(.signatureAlgorithm, i, .passed, .selfSignedHashExempt(name: name)))
            } else if weak {
                steps.append(Step(.signatureAlgorithm, i, .failed, .weakSignature(name: name)))
            } else if sha1 && c.isSSL && c.deviceAnchored && c.isAnchor(i) {
                // trustd drops the device-trusted anchor from SignatureHashAlgorithms (not from
                // WeakSignature); a self-signed one was exempt already.
                steps.append(
                    Step(
                        .signatureAlgorithm, i,
                        CheckContext.deviceAnchorReason("the hash of its own signature is not judged"),
                        .signatureHashDeviceAnchorExempt(name: name)))
            } else if sha1 && (c.isSSL || c.webpki) {
                steps.append(Step(.signatureAlgorithm, i, .failed, .sha1Signature(name: name)))
            } else {
                steps.append(Step(.signatureAlgorithm, i, .passed, .signatureAlgorithmOK(name: name)))
            }
        }
    }
}
