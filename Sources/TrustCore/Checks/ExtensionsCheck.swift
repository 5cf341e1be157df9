/// `critical-extensions` and `compliance`: every critical extension understood; encodings sound.
enum ExtensionsCheck: PathCheck {
    static func run(_ c: CheckContext, into steps: inout [Step]) {
        for (i, cert) in c.certificates.enumerated() {
            if let unknown = cert.extensions.first(where: { $0.critical && !$0.isKnown }) {
                steps.append(Step(.criticalExtensions, i, .failed, .unknownCriticalExtension(oid: unknown.oid.dotted)))
            } else {
                steps.append(Step(.criticalExtensions, i, .passed, .criticalExtensionsUnderstood))
            }
            var findings: [Finding] = []
            for issue in cert.complianceIssues {
                findings.append(issue.hasPrefix("duplicate") ? .duplicateExtension(detail: issue) : .nonCompliant(detail: issue))
            }
            // Apple NonEmptySubject: a CA, or a leaf without a critical SAN, needs a subject.
            if cert.subject.isEmpty {
                let sanCritical = cert.extension(.subjectAltName)?.critical ?? false
                if i > 0 || !sanCritical { findings.append(.emptySubject) }
            }
            // Apple IdLinkage: the child's AKI key id must equal the parent's SKI when both exist.
            if i + 1 < c.count, let aki = cert.authorityKeyIdentifier?.keyIdentifier,
                let ski = c.certificates[i + 1].subjectKeyIdentifier, aki != ski
            {
                findings.append(.keyIdentifierMismatch)
            }
            if c.webpki { findings += webpkiFindings(c, i, cert) }
            if findings.isEmpty {
                steps.append(Step(.compliance, i, .passed, .compliant))
            } else {
                for f in findings { steps.append(Step(.compliance, i, .failed, f)) }
            }
        }
    }

    /// RFC 5280 and CA/Browser Forum profile rules x509-limbo checks beyond Apple's.
    static func webpkiFindings(_ c: CheckContext, _ i: Int, _ cert: Certificate) -> [Finding] {
        var out: [Finding] = []
        // RFC 5280 4.1.2.2: serial numbers are positive and at most 20 octets.
        if cert.serialNumber.count > 21 || (cert.serialNumber.count == 21 && cert.serialNumber[0] != 0) {
            out.append(.nonCompliant(detail: "serial number longer than 20 octets (RFC 5280 4.1.2.2)"))
        }
        if cert.serialNumber[0] & 0x80 != 0 {
            out.append(.nonCompliant(detail: "negative serial number (RFC 5280 4.1.2.2)"))
        }
        if let san = cert.extension(.subjectAltName) {
            // RFC 5280 4.2.1.6: with an empty subject, the SAN must be critical.
            if cert.subject.isEmpty && !san.critical {
                out.append(.nonCompliant(detail: "empty subject with a non-critical subjectAltName (RFC 5280 4.2.1.6)"))
            }
        } else if i == 0 && c.count > 1 {
            out.append(.nonCompliant(detail: "leaf has no subjectAltName (CA/Browser Forum BR 7.1.2.7.12)"))
        }
        if let bc = cert.extension(.basicConstraints), i > 0, !bc.critical, !c.isAnchor(i) {
            out.append(.nonCompliant(detail: "CA basicConstraints is not critical (RFC 5280 4.2.1.9)"))
        }
        if cert.isSelfIssued == false || !c.isAnchor(i) {
            // RFC 5280 4.2.1.1: AKI is required except on self-signed certificates.
            if cert.authorityKeyIdentifier == nil && !(c.isAnchor(i)) && c.count > 1 && cert.version == 3 {
                out.append(.nonCompliant(detail: "missing authorityKeyIdentifier (RFC 5280 4.2.1.1)"))
            }
        }
        if i > 0, cert.subjectKeyIdentifier == nil, cert.version == 3, !c.isAnchor(i) {
            out.append(.nonCompliant(detail: "CA without subjectKeyIdentifier (RFC 5280 4.2.1.2)"))
        }
        if let aki = cert.extension(.authorityKeyIdentifier), aki.critical {
            out.append(.nonCompliant(detail: "authorityKeyIdentifier marked critical (RFC 5280 4.2.1.1)"))
        }
        if let ski = cert.extension(.subjectKeyIdentifier), ski.critical {
            out.append(.nonCompliant(detail: "subjectKeyIdentifier marked critical (RFC 5280 4.2.1.2)"))
        }
        return out
    }
}
