import TrustSupport
import TrustX509

/// RFC 5280 6.3's CRL processing for one certificate of a path: which of the CRLs at hand
/// cover it (issuer, distribution point, issuingDistributionPoint scope, reasons), which of
/// those can be used (criticality, currency, the CRL signer's own path and keyUsage, the
/// signature, a delta with its base), and what they say. Every CRL it looks at is written to
/// `evidence` with why it was used or not. The evaluation lends its budget and signature cache
/// as `SignatureWork`, so this rule needs nothing of the engine's.
package struct CRLValidation {
    /// What the CRLs decided about one certificate.
    package enum Status: Equatable {
        /// A usable CRL lists it (RFC 5280 6.3.3 (i), (j)).
        case revoked(date: Timestamp, reason: Int?, signer: String)
        /// Usable CRLs covering every reason do not list it.
        case unrevoked(signers: [String])
        /// The CRLs do not decide it: none applies, or the usable ones cover only some reasons.
        case undetermined
    }

    /// The outcome for one certificate, with the CRLs considered.
    package struct Outcome {
        package var status: Status
        /// One line per CRL considered: which, and why it was used or not.
        package var evidence: [String]
        /// Whether a CRL that applies to the certificate was set aside for a defect (rather
        /// than being out of its scope): under `webpki` that fails the certificate.
        package var defective: [String]
        /// Whether the budget or the deadline stopped the work.
        package var stopped: Bool
        /// The lines of `evidence` and `defective`, so a line is written once without searching.
        var written: Set<String> = []
    }

    /// The path, leaf first: the certificates CRLs are about and the issuers of CRL signers.
    let certificates: [Certificate]
    /// The presented certificates besides the path, where a CRL's separate signer is found.
    let otherCertificates: [Certificate]
    /// The CRLs at hand, complete and delta.
    let crls: [RevocationList]
    /// The evaluation time.
    let time: Timestamp
    /// Whether only a positive answer counts: a CRL signer whose own status is undetermined
    /// then cannot be used.
    let requirePositive: Bool

    /// Validation against `crls` at `time` of the certificates of a path.
    package init(
        certificates: [Certificate], otherCertificates: [Certificate], crls: [RevocationList], time: Timestamp,
        requirePositive: Bool
    ) {
        self.certificates = certificates
        self.otherCertificates = otherCertificates
        self.crls = crls
        self.time = time
        self.requirePositive = requirePositive
    }

    /// At most this many CRLs are looked at for one certificate: a bound on the work of input
    /// the user or a server supplies.
    package static let maximumCRLs = 256

    /// How deep CRL signers' own revocation is followed: the signer of a CRL, the signer of
    /// the CRL that covers that signer, and no further.
    static let maximumSignerDepth = 2

    /// RFC 5280 6.3.3 for `cert`, whose issuer is `issuerIndex` on the path.
    package func validate(
        _ cert: Certificate, issuerIndex: Int, depth: Int = 0, work: inout some SignatureWork
    ) -> Outcome {
        var out = Outcome(status: .undetermined, evidence: [], defective: [], stopped: false)
        let points: [DistributionPoint] = {
            guard let dps = cert.distributionPoints, !dps.isEmpty else { return [DistributionPoint()] }
            return dps
        }()
        var reasons: RevocationReasons = []
        var signers: [String] = []
        var seen = Set<Int>()
        var revokedBy: (entry: RevokedEntry, signer: String)?
        var unrelated = 0
        var usedDelta = false
        points: for point in points.prefix(DistributionPoint.maximumPoints) {
            for (n, crl) in crls.prefix(Self.maximumCRLs).enumerated() where !crl.isDelta {
                if reasons.isSuperset(of: .all) || revokedBy != nil { break points }
                guard work.withinTime() else {
                    out.stopped = true
                    return out
                }
                let label = Self.label(crl)
                // (b)(1): the CRL's issuer.
                if let crlIssuer = point.crlIssuer {
                    guard Self.contains(crlIssuer, crl.issuer) else {
                        if !crl.issuer.matches(cert.issuer) { unrelatedCount(&unrelated, n, &seen) }
                        continue
                    }
                    guard crl.issuingDistributionPoint?.indirectCRL == true else {
                        note(
                            &out, label,
                            "its issuer is the distribution point's cRLIssuer, but it is not an indirect CRL (RFC 5280 6.3.3 (b)(1))",
                            n, &seen)
                        continue
                    }
                } else if !crl.issuer.matches(cert.issuer) {
                    unrelatedCount(&unrelated, n, &seen)
                    continue
                }
                // (b)(2): the issuingDistributionPoint's scope.
                if let why = Self.outOfScope(crl, cert: cert, point: point) {
                    note(&out, label, why, n, &seen)
                    continue
                }
                // (d), (e): the reasons this CRL can add.
                let interim = (point.reasons ?? .all).intersection(
                    crl.issuingDistributionPoint?.onlySomeReasons ?? .all
                )
                .intersection(.all)
                if reasons.isSuperset(of: interim) {
                    note(
                        &out, label, "it covers only reasons already covered (\(interim)) (RFC 5280 6.3.3 (e))", n,
                        &seen)
                    continue
                }
                if let defect = Self.defect(crl, time: time) {
                    note(&out, label, defect, n, &seen, defective: true)
                    continue
                }
                // (f), (g): the signer's path and the signature.
                let signer: Signer
                switch findSigner(of: crl, cert: cert, issuerIndex: issuerIndex, depth: depth, work: &work) {
                case .stopped:
                    out.stopped = true
                    return out
                case .none(let why):
                    note(&out, label, why, n, &seen, defective: true)
                    continue
                case .found(let s): signer = s
                }
                // (c), (h), (i): a delta CRL for this complete CRL, when one is at hand.
                var status: (entry: RevokedEntry, from: String)?
                switch delta(for: crl, signer: signer, work: &work, evidence: &out) {
                case .stopped:
                    out.stopped = true
                    return out
                case .unusable(let why):
                    note(&out, label, why, n, &seen, defective: true)
                    continue
                case .none: break
                case .some(let d):
                    usedDelta = true
                    if let entry = Self.entry(for: cert, in: d) { status = (entry, "the delta CRL \(Self.label(d))") }
                }
                // (j): the complete CRL.
                if status == nil, let entry = Self.entry(for: cert, in: crl) { status = (entry, label) }
                if let status, status.entry.reason != RevocationList.removeFromCRL {
                    note(
                        &out, label, "used: \(status.from) lists this certificate (signed by \(signer.name))", n, &seen)
                    revokedBy = (status.entry, signer.name)
                    break points
                }
                // (k), (l).
                reasons.formUnion(interim)
                signers.append(signer.name)
                let removed = status != nil ? ", and \(status!.from) removes it (removeFromCRL)" : ""
                note(
                    &out, label,
                    "used: it does not list this certificate\(removed) (reasons \(interim), signed by \(signer.name))",
                    n, &seen)
            }
        }
        if !usedDelta {
            for d in crls.prefix(Self.maximumCRLs) where d.isDelta && d.issuer.matches(cert.issuer) {
                out.evidence.append(
                    "\(Self.label(d)): not used: a delta CRL counts only beside a usable complete CRL it updates (RFC 5280 5.2.4)"
                )
            }
        }
        if unrelated > 0 {
            out.evidence.append("\(unrelated) other CRL\(unrelated == 1 ? " is" : "s are") from other issuers")
        }
        if let revokedBy {
            out.status = .revoked(
                date: revokedBy.entry.revocationDate, reason: revokedBy.entry.reason, signer: revokedBy.signer)
        } else if reasons.isSuperset(of: .all) {
            out.status = .unrevoked(signers: signers)
        } else if !signers.isEmpty {
            out.evidence.append("The usable CRLs cover only \(reasons) (RFC 5280 6.3.3: all reasons are needed)")
            out.defective.append("the usable CRLs cover only some revocation reasons (\(reasons))")
        }
        return out
    }

    private func note(
        _ out: inout Outcome, _ label: String, _ why: String, _ n: Int, _ seen: inout Set<Int>, defective: Bool = false
    ) {
        // A CRL met again through another distribution point for the same reason says it once.
        let line = "\(label): \(why)"
        guard out.written.insert(line).inserted else { return }
        out.evidence.append(line)
        if defective { out.defective.append(line) }
        seen.insert(n)
    }

    /// Writes a line of evidence once.
    static func record(_ out: inout Outcome, _ line: String) {
        if out.written.insert(line).inserted { out.evidence.append(line) }
    }

    private func unrelatedCount(_ count: inout Int, _ n: Int, _ seen: inout Set<Int>) {
        if seen.insert(n).inserted { count += 1 }
    }

    /// A CRL in a line of evidence: its issuer, number and thisUpdate.
    static func label(_ crl: RevocationList) -> String {
        let number = crl.crlNumberValue.map { " #\(hexString($0))" } ?? ""
        let kind = crl.isDelta ? "Delta CRL" : "CRL"
        return "\(kind) from \(InputExcerpt.quote(crl.issuer.description))\(number) of \(crl.thisUpdate.rfc3339)"
    }

    // MARK: Scope

    /// Why `crl` does not cover `cert` through `point` (RFC 5280 6.3.3 (b)(2)), or nil.
    static func outOfScope(_ crl: RevocationList, cert: Certificate, point: DistributionPoint) -> String? {
        guard let idp = crl.issuingDistributionPoint else { return nil }
        if let idpName = idp.name {
            let idpNames = idpName.names(relativeTo: crl.issuer)
            if let dpName = point.name {
                let base = point.crlIssuer.flatMap(directoryName) ?? cert.issuer
                guard overlap(idpNames, dpName.names(relativeTo: base)) else {
                    return
                        "its issuingDistributionPoint names none of the certificate's distribution point names (RFC 5280 6.3.3 (b)(2)(i))"
                }
            } else if let crlIssuer = point.crlIssuer {
                guard overlap(idpNames, crlIssuer) else {
                    return
                        "its issuingDistributionPoint names none of the distribution point's cRLIssuer names (RFC 5280 6.3.3 (b)(2)(i))"
                }
            } else {
                return
                    "its issuingDistributionPoint names a distribution point, and the certificate names none (RFC 5280 6.3.3 (b)(2)(i))"
            }
        }
        let isCA = cert.basicConstraints?.isCA == true
        if idp.onlyContainsUserCerts && isCA {
            return
                "it holds only end-entity certificates (onlyContainsUserCerts) and this is a CA (RFC 5280 6.3.3 (b)(2)(ii))"
        }
        if idp.onlyContainsCACerts && !isCA {
            return
                "it holds only CA certificates (onlyContainsCACerts) and this is not one (RFC 5280 6.3.3 (b)(2)(iii))"
        }
        if idp.onlyContainsAttributeCerts {
            return "it holds only attribute certificates (onlyContainsAttributeCerts) (RFC 5280 6.3.3 (b)(2)(iv))"
        }
        return nil
    }

    private static func directoryName(_ names: [GeneralName]) -> DistinguishedName? {
        for case .directoryName(let dn) in names { return dn }
        return nil
    }

    static func contains(_ names: [GeneralName], _ dn: DistinguishedName) -> Bool {
        names.contains { if case .directoryName(let n) = $0 { n.matches(dn) } else { false } }
    }

    static func overlap(_ a: [GeneralName], _ b: [GeneralName]) -> Bool {
        a.prefix(64).contains { x in
            b.prefix(64).contains { y in
                if case .directoryName(let m) = x, case .directoryName(let n) = y { return m.matches(n) }
                return x == y
            }
        }
    }

    // MARK: Defects

    /// CRL extensions whose meaning trustx processes, each with the criticality RFC 5280 5.2
    /// requires of it (nil: either).
    static let processedExtensions: [OID: Bool?] = [
        RevocationList.crlNumber: false, RevocationList.authorityKeyIdentifier: nil,
        RevocationList.issuingDistributionPointOID: true, RevocationList.deltaCRLIndicator: true,
        RevocationList.freshestCRL: false,
    ]

    /// RFC 5280's name for a CRL or CRL entry extension, else the OID's.
    static func name(_ oid: OID) -> String {
        switch oid {
        case RevocationList.crlNumber: "cRLNumber"
        case RevocationList.deltaCRLIndicator: "deltaCRLIndicator"
        case RevocationList.issuingDistributionPointOID: "issuingDistributionPoint"
        case RevocationList.freshestCRL: "freshestCRL"
        case RevocationList.reasonCode: "reasonCode"
        case RevocationList.invalidityDate: "invalidityDate"
        case RevocationList.certificateIssuerOID: "certificateIssuer"
        default: oid.name
        }
    }

    /// What makes `crl` unusable apart from its signer and signature, or nil: none of it costs
    /// a public-key operation.
    static func defect(_ crl: RevocationList, time: Timestamp) -> String? {
        if !crl.hasCRLNumber { return "not used: it has no cRLNumber, which every CRL must carry (RFC 5280 5.2.3)" }
        for x in crl.extensions {
            switch processedExtensions[x.oid] {
            case nil where x.critical:
                return
                    "not used: it has a critical extension \(Self.name(x.oid)) that trustx does not process (RFC 5280 5.2)"
            case let required?? where required != x.critical:
                return
                    "not used: its \(Self.name(x.oid)) extension is \(x.critical ? "" : "not ")critical, which RFC 5280 5.2 forbids"
            default: continue
            }
        }
        if let oid = crl.firstUnknownCriticalEntryExtension {
            return
                "not used: an entry has a critical extension \(Self.name(oid)) that trustx does not process (RFC 5280 5.3)"
        }
        if time < crl.thisUpdate {
            return "not used: its thisUpdate \(crl.thisUpdate.rfc3339) is after the evaluation time"
        }
        if let next = crl.nextUpdate, next < time {
            return "not used: its nextUpdate \(next.rfc3339) has passed (RFC 5280 6.3.3 (a)(2))"
        }
        return nil
    }

    // MARK: Entries

    /// The entry of `crl` about `cert`: its serial number, and in an indirect CRL its issuer
    /// named by the certificateIssuer entry extensions (RFC 5280 5.3.3).
    static func entry(for cert: Certificate, in crl: RevocationList) -> RevokedEntry? {
        let indirect = crl.issuingDistributionPoint?.indirectCRL == true
        for entry in crl.revoked where entry.serialNumber == cert.serialNumber {
            if indirect, let names = entry.certificateIssuer {
                if contains(names, cert.issuer) { return entry }
            } else if crl.issuer.matches(cert.issuer) {
                return entry
            }
        }
        return nil
    }

    // MARK: Signer

    /// Who signed a CRL: a name for the evidence and the key.
    struct Signer {
        var name: String
        var key: PublicKeyInfo
        var keyIdentity: DigestKey
    }

    enum SignerSearch {
        case found(Signer)
        case none(String)
        case stopped
    }

    /// The CRL's signer (RFC 5280 6.3.3 (f), (g)): a certificate named by the CRL's issuer, on
    /// the path above the certificate or presented beside it and issued by a certificate on the
    /// path above it (so both paths end at the same anchor), whose keyUsage, when present,
    /// allows cRLSign, whose own status is not revoked, and whose key verifies the CRL.
    func findSigner(
        of crl: RevocationList, cert: Certificate, issuerIndex: Int, depth: Int, work: inout some SignatureWork
    ) -> SignerSearch {
        var refusals: [String] = []
        var candidates: [(Certificate, onPathAt: Int?)] = []
        for j in issuerIndex..<certificates.count where certificates[j].subject.matches(crl.issuer) {
            candidates.append((certificates[j], j))
        }
        // A CRL signer's own certificate may be covered by a CRL it signs itself: its key is
        // already known good from the path that led here.
        if depth > 0, cert.subject.matches(crl.issuer) { candidates.append((cert, issuerIndex)) }
        if depth < Self.maximumSignerDepth {
            for other in otherCertificates.prefix(64) where other.subject.matches(crl.issuer) {
                if !certificates.contains(where: { $0 == other }), other != cert { candidates.append((other, nil)) }
            }
        }
        for (candidate, onPath) in candidates {
            if let ku = candidate.keyUsage, !ku.has(6) {
                refusals.append("\(candidate.displayName)'s keyUsage lacks cRLSign (RFC 5280 4.2.1.3)")
                continue
            }
            guard work.withinTime() else { return .stopped }
            switch Self.verify(
                crl.detachedSignature, key: candidate.publicKey, keyIdentity: candidate.keyIdentity, work: &work)
            {
            case nil: return .stopped
            case .valid?: break
            case .refused(let why)?:
                refusals.append("\(candidate.displayName)'s key is refused before verifying: \(why)")
                continue
            default:
                refusals.append("its signature does not verify with \(candidate.displayName)'s key")
                continue
            }
            if onPath != nil {
                return .found(
                    Signer(name: candidate.displayName, key: candidate.publicKey, keyIdentity: candidate.keyIdentity))
            }
            // A separate CRL signer: its own path must join this one above the certificate.
            switch signerPath(candidate, from: issuerIndex, depth: depth, work: &work) {
            case .stopped: return .stopped
            case .none(let why): refusals.append(why)
            case .found:
                return .found(
                    Signer(
                        name: "\(candidate.displayName) (a separate CRL signer)", key: candidate.publicKey,
                        keyIdentity: candidate.keyIdentity))
            }
        }
        if candidates.isEmpty {
            return .none(
                "not used: no certificate named \(InputExcerpt.quote(crl.issuer.description)) on the path or presented can have signed it (RFC 5280 6.3.3 (f))"
            )
        }
        return .none("not used: " + refusals.joined(separator: "; ") + " (RFC 5280 6.3.3 (f), (g))")
    }

    /// Whether `signer`, not on the path, was issued by a certificate of the path at or above
    /// `from`, is within its validity, and is not revoked.
    private func signerPath(
        _ signer: Certificate, from: Int, depth: Int, work: inout some SignatureWork
    ) -> SignerSearch {
        guard signer.notBefore <= time, time <= signer.notAfter else {
            return .none("the CRL signer \(signer.displayName) is outside its validity period")
        }
        for j in from..<certificates.count where certificates[j].subject.matches(signer.issuer) {
            let parent = certificates[j]
            guard work.charge(object: signer.identity, key: parent.keyIdentity) else {
                return .stopped
            }
            guard work.check(signer, signedBy: parent) == .valid else { continue }
            let own = validate(signer, issuerIndex: j, depth: depth + 1, work: &work)
            if own.stopped { return .stopped }
            switch own.status {
            case .revoked:
                return .none("the CRL signer \(signer.displayName) is itself revoked")
            case .undetermined where requirePositive:
                return .none("the CRL signer \(signer.displayName)'s own revocation status cannot be determined")
            default:
                return .found(Signer(name: signer.displayName, key: signer.publicKey, keyIdentity: signer.keyIdentity))
            }
        }
        return .none("the CRL signer \(signer.displayName) was not issued by a certificate of this path")
    }

    // MARK: Deltas

    enum DeltaSearch {
        case none
        case some(RevocationList)
        case unusable(String)
        case stopped
    }

    /// The newest usable delta CRL for `base` (RFC 5280 5.2.4, 6.3.3 (c), (h)): same issuer and
    /// scope, a BaseCRLNumber no greater than the base's cRLNumber and a cRLNumber greater,
    /// current, and signed by the base's signer.
    func delta(
        for base: RevocationList, signer: Signer, work: inout some SignatureWork, evidence out: inout Outcome
    ) -> DeltaSearch {
        guard let baseNumber = base.crlNumberValue else { return .none }
        var best: RevocationList?
        for d in crls.prefix(Self.maximumCRLs)
        where d.isDelta && d.issuer.matches(base.issuer) {
            let label = Self.label(d)
            guard d.issuingDistributionPointDER == base.issuingDistributionPointDER else {
                Self.record(
                    &out,
                    "\(label): not used with \(Self.label(base)): their scopes differ (RFC 5280 6.3.3 (c)(2))")
                continue
            }
            guard let from = d.deltaBaseCRLNumber, let number = d.crlNumberValue,
                Self.compare(from, baseNumber) <= 0
            else {
                Self.record(
                    &out,
                    "\(label): not used with \(Self.label(base)): its BaseCRLNumber is after the base's cRLNumber (RFC 5280 5.2.4)"
                )
                continue
            }
            guard Self.compare(number, baseNumber) > 0 else {
                Self.record(&out, "\(label): not used: it is no newer than \(Self.label(base))")
                continue
            }
            if let defect = Self.defect(d, time: time) {
                Self.record(&out, "\(label): \(defect)")
                continue
            }
            guard work.withinTime() else { return .stopped }
            switch Self.verify(d.detachedSignature, key: signer.key, keyIdentity: signer.keyIdentity, work: &work) {
            case nil: return .stopped
            case .valid?: break
            default:
                Self.record(
                    &out,
                    "\(label): not used: its signature does not verify with \(signer.name)'s key (RFC 5280 6.3.3 (h))")
                continue
            }
            if let b = best, let bn = b.crlNumberValue, Self.compare(number, bn) <= 0 { continue }
            best = d
        }
        if let best {
            Self.record(&out, "\(Self.label(best)): used with \(Self.label(base)) (RFC 5280 6.3.3 (c))")
            return .some(best)
        }
        return .none
    }

    /// `key` checks `object`'s signature: charged to the evaluation once, served from its cache
    /// when it was verified before; nil when the budget or the deadline ran out.
    static func verify(
        _ object: DetachedSignature, key: PublicKeyInfo, keyIdentity: DigestKey, work: inout some SignatureWork
    ) -> SignatureCheckResult? {
        guard work.charge(object: object.identity, key: keyIdentity) else { return nil }
        return work.check(object, signedBy: key, keyIdentity: keyIdentity, isRevocation: true)
    }

    /// Compares two non-negative INTEGER content octet strings.
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let x = a.drop { $0 == 0 }
        let y = b.drop { $0 == 0 }
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
        return 0
    }
}
