import PathRules
import TrustCore
import TrustSupport
import TrustX509

/// Every field of a certificate as detail lines: version, serial, algorithms, names attribute by
/// attribute, validity, the key, every extension decoded, fingerprints and the SPKI pin.
///
/// Every value that comes from the certificate is sanitised here: names, SANs and URIs are
/// attacker-controlled text.
public enum CertificateFields {
    /// The lines for `c`, with its validity judged at `time`.
    /// - Parameters:
    ///   - c: The certificate.
    ///   - time: The evaluation time.
    /// - Returns: Headings and fields in the certificate's own order.
    public static func lines(_ c: Certificate, at time: Timestamp) -> [DetailLine] {
        var out: [DetailLine] = []
        func field(_ label: String, _ value: String, indent: Int = 0) {
            out.append(DetailLine(.field(label), value, indent: indent))
        }
        field("Version", "v\(c.version)")
        field("Serial", hexString(c.serialNumber, separator: ":"))
        field("Signature", algorithm(c.signatureAlgorithm))
        if c.tbsSignatureAlgorithm.der != c.signatureAlgorithm.der {
            field("TBS signature", algorithm(c.tbsSignatureAlgorithm) + " (differs: RFC 5280 4.1.1.2)")
        }
        out.append(DetailLine(.heading, "Issuer"))
        out += name(c.issuer)
        out.append(DetailLine(.heading, "Subject"))
        out += name(c.subject)

        out.append(DetailLine(.heading, "Validity"))
        field("Not before", c.notBefore.rfc3339, indent: 2)
        field("Not after", c.notAfter.rfc3339, indent: 2)
        let lifetime = (c.notAfter.secondsSinceEpoch - c.notBefore.secondsSinceEpoch) / 86_400
        field("Lifetime", "\(lifetime) days", indent: 2)
        field("At eval time", validity(c, at: time), indent: 2)
        if c.isSelfIssued, let safari = safariValidity(c) { field("For Safari", safari, indent: 2) }

        out.append(DetailLine(.heading, "Public key"))
        field("Algorithm", algorithm(c.publicKey.algorithm), indent: 2)
        field("Type", TerminalSanitizer.sanitize(c.publicKey.type.label), indent: 2)
        field("Size", c.publicKey.bits > 0 ? "\(c.publicKey.bits) bits" : "unknown", indent: 2)
        if case .ec(let curve) = c.publicKey.type {
            field("Curve", curve.map { "\($0.name) (\($0.dotted))" } ?? "unnamed", indent: 2)
        }
        field("SPKI pin", "sha256//" + c.spkiPin, indent: 2)

        out.append(DetailLine(.heading, "Extensions (\(c.extensions.count))"))
        if c.extensions.isEmpty { out.append(DetailLine(.text, "none (a v1 or v2 certificate has none)", indent: 2)) }
        for ext in c.extensions {
            var head = "\(ext.oid.name)"
            if ext.oid.name != ext.oid.dotted { head += " (\(ext.oid.dotted))" }
            if ext.critical { head += " critical" }
            if !ext.isKnown { head += ext.critical ? ", not understood" : ", not decoded" }
            out.append(DetailLine(.text, TerminalSanitizer.sanitize(head), indent: 2))
            for value in extensionValues(ext) {
                out.append(DetailLine(.text, TerminalSanitizer.sanitize(value), indent: 4))
            }
        }

        out.append(DetailLine(.heading, "Fingerprints"))
        field("SHA-256", hexString(c.sha256, separator: ":"), indent: 2)
        field("SHA-1", hexString(c.sha1, separator: ":"), indent: 2)

        if !c.complianceIssues.isEmpty {
            out.append(DetailLine(.heading, "Compliance"))
            for issue in c.complianceIssues {
                out.append(DetailLine(.text, TerminalSanitizer.sanitize(issue.description), indent: 2))
            }
        }
        return out
    }

    static func algorithm(_ a: AlgorithmIdentifier) -> String {
        a.name == a.oid.dotted ? a.oid.dotted : "\(a.name) (\(a.oid.dotted))"
    }

    static func name(_ n: DistinguishedName) -> [DetailLine] {
        if n.isEmpty { return [DetailLine(.text, "(empty)", indent: 2)] }
        return n.attributes.map {
            DetailLine(.field($0.type.name), TerminalSanitizer.sanitize($0.value), indent: 2)
        }
    }

    /// `valid (expires in 396 days)`, `expired 3 days before`, `not yet valid (starts in 2 days)`.
    static func validity(_ c: Certificate, at time: Timestamp) -> String {
        let day: Int64 = 86_400
        if time < c.notBefore {
            return "not yet valid (starts \((c.notBefore.secondsSinceEpoch - time.secondsSinceEpoch) / day) days later)"
        }
        if time > c.notAfter {
            return "expired (\((time.secondsSinceEpoch - c.notAfter.secondsSinceEpoch) / day) days before)"
        }
        return "valid (\((c.notAfter.secondsSinceEpoch - time.secondsSinceEpoch) / day) days left)"
    }

    /// A root's date for Safari and Apple's other programs, which trustd moves 60 days early
    /// (docs/steps.md, `validity`), or nil when the rule leaves the root alone.
    static func safariValidity(_ c: Certificate) -> String? {
        if AnchorExpiryRules.neverExpiring[hexString(c.sha256)] != nil {
            return "never checked for expiry (trustd exempts this anchor)"
        }
        guard let early = AnchorExpiryRules.earlyExpiry(of: c) else { return nil }
        return
            "until \(early.rfc3339), 60 days early, as a system root or an app's anchor (not one the user trusted; docs/steps.md#validity)"
    }

    static func generalNames(_ names: [GeneralName]) -> [String] {
        names.map { "\($0.typeName): \($0.valueText)" }
    }

    /// The decoded value of one extension, one entry per line.
    static func extensionValues(_ ext: Extension) -> [String] {
        switch ext.decoded {
        case .basicConstraints(let bc):
            return ["CA: \(bc.isCA)" + (bc.pathLength.map { ", pathLen: \($0)" } ?? "")]
        case .keyUsage(let ku):
            return [ku.setNames.isEmpty ? "(no bits set)" : ku.setNames.joined(separator: ", ")]
        case .extendedKeyUsage(let oids):
            return [oids.map(\.name).joined(separator: ", ")]
        case .subjectAltName(let names), .issuerAltName(let names), .crlDistributionPoints(let names):
            return names.isEmpty ? ["(empty)"] : generalNames(names)
        case .nameConstraints(let nc):
            var out: [String] = []
            for subtree in nc.permitted ?? [] {
                out.append("permitted \(subtree.base.typeName): \(subtree.base.valueText)")
            }
            for subtree in nc.excluded ?? [] {
                out.append("excluded \(subtree.base.typeName): \(subtree.base.valueText)")
            }
            return out.isEmpty ? ["(no subtrees)"] : out
        case .authorityKeyIdentifier(let aki):
            var out: [String] = []
            if let id = aki.keyIdentifier { out.append("keyid: " + hexString(id, separator: ":")) }
            if let issuer = aki.issuer { out += generalNames(issuer).map { "issuer " + $0 } }
            if let serial = aki.serialNumber { out.append("serial: " + hexString(serial, separator: ":")) }
            return out.isEmpty ? ["(empty)"] : out
        case .subjectKeyIdentifier(let id):
            return [hexString(id, separator: ":")]
        case .authorityInfoAccess(let descriptions):
            return descriptions.map { "\($0.method.name): \($0.location.valueText)" }
        case .certificatePolicies(let oids):
            return oids.map { $0.name == $0.dotted ? $0.dotted : "\($0.name) (\($0.dotted))" }
        case .policyConstraints(let requireExplicit, let inhibitMapping):
            var out: [String] = []
            if let r = requireExplicit { out.append("requireExplicitPolicy: \(r)") }
            if let i = inhibitMapping { out.append("inhibitPolicyMapping: \(i)") }
            return out.isEmpty ? ["(empty)"] : out
        case .inhibitAnyPolicy(let skip):
            return ["skipCerts: \(skip)"]
        case .policyMappings(let count):
            return ["\(count) mapping\(count == 1 ? "" : "s")"]
        case .signedCertificateTimestamps(let scts):
            return scts.map {
                let time = Timestamp(secondsSinceEpoch: Int64($0.timestampMilliseconds / 1000)).rfc3339
                return "SCT v\(Int($0.version) + 1) log \(hexString($0.logID.prefix(8))) at \(time)"
            }
        case .ctPoison:
            return ["precertificate poison: not a certificate to serve"]
        case .raw(let error?):
            return ["malformed: \(error)"]
        case .raw(nil):
            let shown = ext.value.prefix(32)
            return ["\(ext.value.count) bytes: \(hexString(shown))\(ext.value.count > shown.count ? "..." : "")"]
        }
    }
}
