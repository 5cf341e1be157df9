import PathRules
import TrustSupport
import TrustX509

/// `critical-extensions` and `compliance`: every critical extension understood; encodings sound.
struct ExtensionsCheck: PathCheck {
    /// Apple UnparseableExtension: a known extension whose value Apple's parser cannot read fails
    /// under every Apple policy (without it, such an extension is reported as malformed).
    let appleUnparseable: Bool
    /// Whether an encoding Apple's parser tolerates (a BER-ism, a malformed non-critical
    /// extension) fails; otherwise it is reported as tolerated.
    let rejectsMalformedEncoding: Bool
    /// RFC 5280's profile rules beyond Apple's (serial numbers, criticality, key identifiers,
    /// name syntax), which x509-limbo checks.
    let rfc5280ProfileRules: Bool
    /// CA/Browser Forum subscriber rules on the leaf's subjectAltName and commonName.
    let subscriberRules: Bool

    // IdLinkage links AKI to SKI; AIA's criticality is judged here; an issuerAltName carries no
    // rule beyond sound encoding, which the compliance step enforces (Apple reads it too).
    var enforcedExtensions: Set<OID> {
        [.authorityKeyIdentifier, .subjectKeyIdentifier, .authorityInfoAccess, .issuerAltName]
    }

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        for (i, cert) in c.certificates.enumerated() {
            if let unknown = firstUnknownCriticalExtension(cert, c.understoodExtensions) {
                let finding = ExtensionsFinding.unknownCriticalExtension(oid: unknown.oid.dotted)
                steps.append(Step(.criticalExtensions, i, .failed, finding))
            } else {
                steps.append(Step(.criticalExtensions, i, .passed, ExtensionsFinding.criticalExtensionsUnderstood))
            }
            var findings: [Finding] = []
            var tolerated: [Finding] = []
            // Apple UnparseableExtension: a known extension whose value Apple's parser cannot
            // read fails under every policy; the webpki profile reports it as malformed below.
            let unreadable = appleUnparseable ? cert.appleUnparseableExtensions : []
            for ext in unreadable {
                findings.append(
                    Finding(ExtensionsFinding.unparseableExtension(name: ext.oid.name, reason: ext.decodeError ?? "")))
            }
            for issue in cert.complianceIssues {
                // Reported above as Apple's UnparseableExtension.
                if case .malformedExtension(let oid, _) = issue, unreadable.contains(where: { $0.oid == oid }) {
                    continue
                }
                if case .duplicateExtension = issue {
                    findings.append(Finding(ExtensionsFinding.duplicateExtension(detail: issue.description)))
                } else if rejectsMalformedEncoding {
                    findings.append(Finding(ComplianceFinding.nonCompliant(detail: issue.description)))
                } else {
                    // Apple's parser accepts BER-isms such as an encoded critical FALSE or a
                    // malformed non-critical extension; nothing in trustd fails the chain for them.
                    tolerated.append(Finding(ComplianceFinding.nonCompliant(detail: issue.description)))
                }
            }
            // Apple NonEmptySubject: a CA, or a leaf without a critical SAN, needs a subject.
            if cert.subject.isEmpty {
                let sanCritical = cert.extension(.subjectAltName)?.critical ?? false
                if i > 0 || !sanCritical { findings.append(Finding(ExtensionsFinding.emptySubject)) }
            }
            // Apple IdLinkage: the child's AKI key id must equal the parent's SKI when both exist.
            if i + 1 < c.count, let aki = cert.authorityKeyIdentifier?.keyIdentifier,
                let ski = c.certificates[i + 1].subjectKeyIdentifier, aki != ski
            {
                findings.append(Finding(ExtensionsFinding.keyIdentifierMismatch))
            }
            if rfc5280ProfileRules { findings += profileFindings(c, i, cert).map(Finding.init) }
            if findings.isEmpty && tolerated.isEmpty {
                steps.append(Step(.compliance, i, .passed, ExtensionsFinding.compliant))
            } else {
                for f in findings { steps.append(Step(.compliance, i, .failed, f)) }
                for f in tolerated {
                    steps.append(Step(.compliance, i, .skipped("Apple's certificate parser tolerates this"), f))
                }
            }
        }
    }

    /// RFC 5280 and CA/Browser Forum profile rules x509-limbo checks beyond Apple's.
    /// The first critical extension outside `understood`, or, for nil, the one decoding found.
    func firstUnknownCriticalExtension(_ cert: Certificate, _ understood: Set<OID>?) -> Extension? {
        guard let understood else { return cert.firstUnknownCriticalExtension }
        return cert.extensions.first { $0.critical && !understood.contains($0.oid) }
    }

    func profileFindings(_ c: CheckContext, _ i: Int, _ cert: Certificate) -> [ComplianceFinding] {
        var out: [ComplianceFinding] = []
        // RFC 5280 4.1.2.2: serial numbers are positive and at most 20 octets.
        if cert.serialNumber.count > 21 || (cert.serialNumber.count == 21 && cert.serialNumber[0] != 0) {
            out.append(.nonCompliant(detail: "serial number longer than 20 octets (RFC 5280 4.1.2.2)"))
        }
        if cert.serialNumber[0] & 0x80 != 0 {
            out.append(.nonCompliant(detail: "negative serial number (RFC 5280 4.1.2.2)"))
        }
        // RFC 5280 4.1.2.2: "The serial number MUST be a positive integer assigned by the CA to
        // each certificate." Zero is not positive. The trust anchor is exempt: it is trusted as
        // configured (RFC 5280 6.1.1 (d)), and deployed roots (Starfield Root G2) have serial 0.
        if !c.isAnchor(i), cert.serialNumber.allSatisfy({ $0 == 0 }) {
            out.append(.nonCompliant(detail: "serial number is zero, not a positive integer (RFC 5280 4.1.2.2)"))
        }
        // RFC 5280 4.2.2.1: "Conforming CAs MUST mark this extension [authorityInfoAccess] as
        // non-critical."
        if cert.extension(.authorityInfoAccess)?.critical == true {
            out.append(.nonCompliant(detail: "authorityInfoAccess marked critical (RFC 5280 4.2.2.1)"))
        }
        if let san = cert.extension(.subjectAltName) {
            // RFC 5280 4.2.1.6: with an empty subject, the SAN must be critical.
            if cert.subject.isEmpty && !san.critical {
                out.append(.nonCompliant(detail: "empty subject with a non-critical subjectAltName (RFC 5280 4.2.1.6)"))
            }
            // CA/Browser Forum BR 7.1.2.7.12 (subscriber subjectAltName): "If the subject field of
            // the certificate is an empty SEQUENCE, this extension MUST be marked critical ...
            // Otherwise, this extension MUST NOT be marked critical."
            if i == 0, c.count > 1, subscriberRules, !cert.subject.isEmpty, san.critical {
                out.append(
                    .nonCompliant(
                        detail:
                            "subjectAltName marked critical although the subject is not empty (CA/Browser Forum BR 7.1.2.7.12)"
                    ))
            }
        } else if i == 0 && c.count > 1 && subscriberRules {
            out.append(.nonCompliant(detail: "leaf has no subjectAltName (CA/Browser Forum BR 7.1.2.7.12)"))
        }
        // RFC 5280 4.2.1.9: "Conforming CAs MUST include this extension in all CA certificates
        // that contain public keys used to validate digital signatures on certificates and MUST
        // mark the extension as critical in such certificates." That includes the root.
        if let bc = cert.extension(.basicConstraints), i > 0, !bc.critical {
            out.append(.nonCompliant(detail: "CA basicConstraints is not critical (RFC 5280 4.2.1.9)"))
        }
        // RFC 5280 4.2.1.1: "The keyIdentifier field of the authorityKeyIdentifier extension MUST
        // be included in all certificates generated by conforming CAs ... There is one exception;
        // where a CA distributes its public key in the form of a "self-signed" certificate, the
        // authority key identifier MAY be omitted." An anchor that is not self-issued (a
        // cross-signed root) is not exempt, unless its own key verifies its signature: such a
        // certificate is how a CA distributes its key whatever its issuer field says, and there
        // is no other key for an identifier to point to.
        let selfSignedEnd = cert.isSelfIssued && i == c.count - 1
        if cert.authorityKeyIdentifier == nil && !selfSignedEnd && c.count > 1 && cert.version == 3
            && !(i == c.count - 1 && c.cache.check(cert, signedBy: cert) == .valid)
        {
            out.append(.nonCompliant(detail: "missing authorityKeyIdentifier (RFC 5280 4.2.1.1)"))
        }
        // CA/Browser Forum BR 7.1.2.1.3 (Root CA authorityKeyIdentifier): "keyIdentifier MUST be
        // present. MUST be identical to the subjectKeyIdentifier field. authorityCertIssuer MUST
        // NOT be present. authorityCertSerialNumber MUST NOT be present."
        if selfSignedEnd, i > 0, let aki = cert.authorityKeyIdentifier {
            if aki.keyIdentifier == nil {
                out.append(
                    .nonCompliant(
                        detail: "root authorityKeyIdentifier lacks keyIdentifier (CA/Browser Forum BR 7.1.2.1.3)"))
            } else if aki.keyIdentifier != cert.subjectKeyIdentifier {
                out.append(
                    .nonCompliant(
                        detail:
                            "root authorityKeyIdentifier differs from its subjectKeyIdentifier (CA/Browser Forum BR 7.1.2.1.3)"
                    ))
            }
            if aki.issuer != nil {
                out.append(
                    .nonCompliant(
                        detail: "root authorityKeyIdentifier has authorityCertIssuer (CA/Browser Forum BR 7.1.2.1.3)"))
            }
            if aki.serialNumber != nil {
                out.append(
                    .nonCompliant(
                        detail:
                            "root authorityKeyIdentifier has authorityCertSerialNumber (CA/Browser Forum BR 7.1.2.1.3)")
                )
            }
        }
        // RFC 5280 4.2.1.2: the extension "MUST appear in all conforming CA certificates", roots
        // included (x509-limbo rfc5280::ski::root-missing-ski; BR 7.1.2.1.2 agrees).
        if i > 0, cert.subjectKeyIdentifier == nil, cert.version == 3 {
            out.append(.nonCompliant(detail: "CA without subjectKeyIdentifier (RFC 5280 4.2.1.2)"))
        }
        // RFC 5280 4.2.1.6: a dNSName "MUST be in the 'preferred name syntax', as specified by
        // Section 3.5 of [RFC1034] and as modified by Section 2.1 of [RFC1123]" (a wildcard
        // leftmost label aside): letters, digits and hyphens only, and never dotted decimals.
        for name in cert.dnsNames where !NameConstraintMatcher.isPreferredNameSyntax(name) {
            out.append(
                .nonCompliant(
                    detail: "subjectAltName dNSName \(name) is not in the preferred name syntax (RFC 5280 4.2.1.6)"))
        }
        // RFC 5280 4.2.1.10: each constraint is a well-formed name of its form.
        if let nc = cert.nameConstraints {
            out += NameConstraintMatcher.malformedBases(nc).map { ComplianceFinding.nonCompliant(detail: $0) }
        }
        if let aki = cert.extension(.authorityKeyIdentifier), aki.critical {
            out.append(.nonCompliant(detail: "authorityKeyIdentifier marked critical (RFC 5280 4.2.1.1)"))
        }
        out += CertificatePoliciesCheck.encodingFindings(cert)
        if let ski = cert.extension(.subjectKeyIdentifier), ski.critical {
            out.append(.nonCompliant(detail: "subjectKeyIdentifier marked critical (RFC 5280 4.2.1.2)"))
        }
        // CA/Browser Forum BR 7.1.4.3 (subscriber commonName): "If the value is an IPv4 address,
        // then the value MUST be encoded as an IPv4Address as specified in RFC 3986, Section
        // 3.2.2. If the value is an IPv6 address, then the value MUST be encoded in the text
        // representation specified in RFC 5952, Section 4. If the value is a Fully-Qualified
        // Domain Name ... all Domain Labels ... must be encoded as LDH Labels, and P-Labels MUST
        // NOT be converted to their Unicode representation." And: "If present, this attribute
        // MUST contain exactly one entry that is one of the values contained in the
        // Certificate's subjectAltName extension." Both apply when the Baseline Requirements do
        // (`caBrowserForumRules`, on by default; D40).
        if i == 0, c.count > 1, subscriberRules, c.leafIsForServerAuth {
            for cn in cert.subject.commonNames {
                if let problem = Self.commonNameEncodingProblem(cn) {
                    out.append(
                        .nonCompliant(detail: "subject commonName \(cn): \(problem) (CA/Browser Forum BR 7.1.4.3)"))
                } else if !Self.commonNameIsASANValue(cn, cert) {
                    out.append(
                        .nonCompliant(
                            detail:
                                "subject commonName \(cn) is not one of the subjectAltName values (CA/Browser Forum BR 7.1.4.3)"
                        ))
                }
            }
            if cert.subject.commonNames.count > 1 {
                out.append(.nonCompliant(detail: "more than one subject commonName (CA/Browser Forum BR 7.1.4.3)"))
            }
        }
        return out
    }

    /// Whether `cn` (already in canonical encoding) copies one of the leaf's SAN values of its
    /// own kind: an address one of the iPAddress entries; a domain name, character for character,
    /// a dNSName entry or the domain a wildcard entry is issued for (`example.com` beside
    /// `*.example.com`). A leaf whose SAN holds no value of the CN's kind is not judged (D187).
    static func commonNameIsASANValue(_ cn: String, _ cert: Certificate) -> Bool {
        if let address = lenientIPAddress(cn) {
            return cert.ipAddresses.isEmpty || cert.ipAddresses.contains(address)
        }
        let names = cert.dnsNames
        return names.isEmpty || names.contains { $0 == cn || $0 == "*." + cn }
    }

    /// Why a subscriber commonName breaks BR 7.1.4.3's encoding rules, or nil. An IP address in
    /// any notation (inet_aton-style IPv4 with hex, octal or fewer parts; IPv6 in any case or
    /// compression) must be in canonical text; anything else must be ASCII letters, digits,
    /// hyphens, underscores, dots, spaces or `*`.
    static func commonNameEncodingProblem(_ cn: String) -> String? {
        if let address = lenientIPAddress(cn) {
            return cn == formatIPAddress(address) ? nil : "an IP address not in RFC 3986 / RFC 5952 canonical text"
        }
        let ldh = cn.utf8.allSatisfy { b in
            let l = b | 0x20
            return (l >= 0x61 && l <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E || b == 0x5F
                || b == 0x2A || b == 0x20
        }
        return ldh ? nil : "a domain name must be written in LDH labels (A-labels), not Unicode"
    }

    /// Parses IPv4 the way inet_aton does (1 to 4 parts, decimal, octal `0…` or hex `0x…`) and
    /// IPv6 in any letter case; nil when the text is neither.
    static func lenientIPAddress(_ text: String) -> [UInt8]? {
        if text.contains(":") { return parseIPAddress(text.lowercased()) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt32] = []
        for part in parts {
            var digits = Substring(part)
            var radix = 10
            if digits.lowercased().hasPrefix("0x") {
                digits = digits.dropFirst(2)
                radix = 16
            } else if digits.count > 1 && digits.hasPrefix("0") {
                radix = 8
            }
            guard !digits.isEmpty, digits.count <= 10, let v = UInt32(digits, radix: radix) else { return nil }
            values.append(v)
        }
        // The last part fills the remaining octets (a.b.c.d, a.b.c16, a.b24, a32).
        var out: [UInt8] = []
        for v in values.dropLast() {
            guard v <= 0xFF else { return nil }
            out.append(UInt8(v))
        }
        let remaining = 4 - out.count
        let last = values[values.count - 1]
        guard remaining == 4 || last < (UInt32(1) << (8 * UInt32(remaining))) else { return nil }
        for k in stride(from: remaining - 1, through: 0, by: -1) { out.append(UInt8((last >> (8 * UInt32(k))) & 0xFF)) }
        return out
    }
}
