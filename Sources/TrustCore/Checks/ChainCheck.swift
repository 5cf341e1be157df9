import TrustX509

/// `chain`, `signature` and `anchor`: what path building established.
enum ChainCheck: PathCheck {
    static let enforcedExtensions: Set<OID> = []

    static func run(_ c: CheckContext, into steps: inout [Step]) {
        let last = c.count - 1
        let lastCert = c.certificates[last]
        if c.path.isAnchored {
            steps.append(Step(.chain, nil, .passed, .chainComplete(length: c.count)))
        } else if c.path.depthExceeded {
            let limit = c.settings.maximumIntermediates ?? PathBuilder.defaultMaximumIntermediates
            steps.append(Step(.chain, last, .failed, .depthExceeded(limit: limit)))
        } else if c.path.endsSelfSigned {
            steps.append(Step(.chain, nil, .passed, .chainEndsSelfSigned(length: c.count)))
        } else {
            steps.append(Step(.chain, last, .failed, .issuerNotFound(issuer: lastCert.issuer.description)))
        }
        for i in 0..<c.count {
            if i == last {
                if c.path.isAnchored {
                    steps.append(Step(.signature, i, .notApplicable, .anchorSignatureNotChecked))
                }
            } else {
                steps.append(
                    Step(
                        .signature, i, .passed,
                        .signatureValid(algorithm: c.certificates[i].signatureAlgorithm.name)))
            }
        }
        for r in c.path.rejected {
            let finding: Finding
            switch r.reason {
            case .unsupported(let why): finding = .signatureUnsupported(reason: why)
            case .refused(let why): finding = .signatureKeyRefused(reason: why)
            default: finding = .signatureInvalid(candidate: r.candidate.subject.description)
            }
            // A bad signature discards that candidate, not the path: trustd drops the candidate
            // during path building and reports the best remaining path's error
            // (SecCertificateServer.c). It fails the path only where no other issuer was found for
            // that certificate.
            if r.childIndex < last {
                steps.append(
                    Step(
                        .signature, r.childIndex,
                        .skipped("another candidate issuer's signature verifies"), finding))
            } else {
                steps.append(Step(.signature, r.childIndex, .failed, finding))
            }
        }
        if let cls = c.path.anchorClass {
            steps.append(Step(.anchor, last, .passed, .anchoredAt(anchorClass: cls, name: lastCert.displayName)))
        } else if c.path.endsSelfSigned {
            steps.append(Step(.anchor, last, .failed, .selfSignedNotTrusted(name: lastCert.displayName)))
        } else {
            steps.append(Step(.anchor, nil, .skipped("the chain is incomplete, so no anchor was reached"), .noAnchor))
        }
    }
}
