import PathRules
import TrustX509

/// `chain`, `signature` and `anchor`: what path building established.
struct ChainCheck: PathCheck {
    /// Whether the anchor step names a date constraint of trustd's Valid database (Apple's profile).
    let namesDateConstraints: Bool
    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        let last = c.count - 1
        let lastCert = c.certificates[last]
        if c.path.isAnchored {
            steps.append(Step(.chain, nil, .passed, ChainFinding.chainComplete(length: c.count)))
        } else if c.path.depthExceeded {
            let limit = c.settings.maximumIntermediates ?? PathBuilder.defaultMaximumIntermediates
            steps.append(Step(.chain, last, .failed, ChainFinding.depthExceeded(limit: limit)))
        } else if c.path.endsSelfSigned {
            steps.append(Step(.chain, nil, .passed, ChainFinding.chainEndsSelfSigned(length: c.count)))
        } else {
            // Candidates named as the issuer whose keys do not verify: the report says so, and
            // whether the AIA fetch brought them, rather than that no such certificate was found.
            let rejected = Set(c.path.rejected.filter { $0.childIndex == last }.map(\.candidate))
            let fetched = rejected.contains { c.settings.fetchedIssuers.contains($0) }
            steps.append(
                Step(
                    .chain, last, .failed,
                    ChainFinding.issuerNotFound(
                        issuer: lastCert.issuer.description, rejectedCandidates: rejected.count,
                        fetchedThroughAIA: fetched)))
        }
        for i in 0..<c.count {
            if i == last {
                if c.path.isAnchored {
                    steps.append(Step(.signature, i, .notApplicable, ChainFinding.anchorSignatureNotChecked))
                }
            } else {
                let finding = ChainFinding.signatureValid(algorithm: c.certificates[i].signatureAlgorithm.name)
                steps.append(Step(.signature, i, .passed, finding))
            }
        }
        for r in c.path.rejected {
            let finding: ChainFinding
            switch r.reason {
            case .unsupported(let why): finding = ChainFinding.signatureUnsupported(reason: why)
            case .refused(let why): finding = ChainFinding.signatureKeyRefused(reason: why)
            default: finding = ChainFinding.signatureInvalid(candidate: r.candidate.subject.description)
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
            let table = namesDateConstraints && last > 0 ? c.settings.dateConstraints ?? DateConstraint.apple : [:]
            let name = lastCert.displayName
            let finding = DateConstraint.of(lastCert, in: table).map {
                ChainFinding.anchoredAtConstrainedRoot(anchorClass: cls, name: name, constraint: $0)
            }
            steps.append(Step(.anchor, last, .passed, finding ?? ChainFinding.anchoredAt(anchorClass: cls, name: name)))
        } else if c.path.endsSelfSigned, let note = c.settings.systemStore?.removalNote(for: lastCert) {
            steps.append(Step(.anchor, last, .failed, ChainFinding.removedRoot(name: lastCert.displayName, note: note)))
        } else if c.path.endsSelfSigned {
            steps.append(Step(.anchor, last, .failed, ChainFinding.selfSignedNotTrusted(name: lastCert.displayName)))
        } else {
            steps.append(
                Step(.anchor, nil, .skipped("the chain is incomplete, so no anchor was reached"), ChainFinding.noAnchor)
            )
        }
    }
}
