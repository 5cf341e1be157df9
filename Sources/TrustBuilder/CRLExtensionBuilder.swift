import TrustSupport
import TrustX509

/// The extensions that scope CRLs and point certificates at them (RFC 5280 4.2.1.13, 4.2.1.15,
/// 5.2.4, 5.2.5, 5.3), encoded for `CertificateBuilder.rawExtensions` and
/// `RevocationListBuilder.extensions`.
public enum CRLExtensionBuilder {
    /// cRLDistributionPoints (non-critical).
    public static func distributionPoints(_ points: [DistributionPoint], critical: Bool = false)
        -> CertificateBuilder.RawExtension
    {
        CertificateBuilder.RawExtension(oid: .crlDistributionPoints, critical: critical, value: pointList(points))
    }

    /// freshestCRL (non-critical): where delta CRLs are found.
    public static func freshestCRL(_ points: [DistributionPoint], critical: Bool = false)
        -> CertificateBuilder.RawExtension
    {
        CertificateBuilder.RawExtension(oid: RevocationList.freshestCRL, critical: critical, value: pointList(points))
    }

    /// issuingDistributionPoint (critical, as RFC 5280 5.2.5 has it).
    public static func issuingDistributionPoint(_ idp: IssuingDistributionPoint, critical: Bool = true)
        -> CertificateBuilder.RawExtension
    {
        let value = DERWriter.encode { w in
            w.sequence { w in
                if let name = idp.name { w.contextSpecific(0) { $0.raw(pointName(name)) } }
                if idp.onlyContainsUserCerts { w.element(tag: 0x81, content: [0xFF]) }
                if idp.onlyContainsCACerts { w.element(tag: 0x82, content: [0xFF]) }
                if let reasons = idp.onlySomeReasons { w.raw(retag(reasonBits(reasons), 0x83)) }
                if idp.indirectCRL { w.element(tag: 0x84, content: [0xFF]) }
                if idp.onlyContainsAttributeCerts { w.element(tag: 0x85, content: [0xFF]) }
            }
        }
        return CertificateBuilder.RawExtension(
            oid: RevocationList.issuingDistributionPointOID, critical: critical, value: value)
    }

    /// deltaCRLIndicator (critical) with the base CRL's number.
    public static func deltaCRLIndicator(base: Int, critical: Bool = true) -> CertificateBuilder.RawExtension {
        CertificateBuilder.RawExtension(
            oid: RevocationList.deltaCRLIndicator, critical: critical, value: DERWriter.encode { $0.integer(base) })
    }

    /// A CRL entry's reasonCode (RFC 5280 5.3.1).
    public static func reasonCode(_ code: Int) -> CertificateBuilder.RawExtension {
        CertificateBuilder.RawExtension(
            oid: RevocationList.reasonCode, critical: false,
            value: DERWriter.encode { w in
                w.element(tag: 0x0A, content: [UInt8(code)])
            })
    }

    /// A CRL entry's certificateIssuer (critical, RFC 5280 5.3.3).
    public static func certificateIssuer(_ names: [GeneralName]) -> CertificateBuilder.RawExtension {
        CertificateBuilder.RawExtension(
            oid: RevocationList.certificateIssuerOID, critical: true,
            value: DERWriter.encode { w in w.sequence { w in for n in names { w.generalName(n) } } })
    }

    static func pointList(_ points: [DistributionPoint]) -> [UInt8] {
        DERWriter.encode { w in
            w.sequence { w in
                for p in points {
                    w.sequence { w in
                        if let name = p.name { w.contextSpecific(0) { $0.raw(pointName(name)) } }
                        if let reasons = p.reasons { w.raw(retag(reasonBits(reasons), 0x81)) }
                        if let issuer = p.crlIssuer {
                            w.contextSpecific(2) { w in for n in issuer { w.generalName(n) } }
                        }
                    }
                }
            }
        }
    }

    static func pointName(_ name: DistributionPointName) -> [UInt8] {
        switch name {
        case .fullName(let names):
            return DERWriter.encode { w in w.contextSpecific(0) { w in for n in names { w.generalName(n) } } }
        case .relativeName(let set):
            return retag(set, 0xA1)
        }
    }

    static func reasonBits(_ reasons: RevocationReasons) -> [UInt8] {
        let bits = Set((0..<9).filter { reasons.rawValue & (1 << UInt16($0)) != 0 })
        return DERWriter.encode { $0.namedBits(bits) }
    }

    /// The same encoding under another identifier octet (IMPLICIT tagging).
    static func retag(_ der: [UInt8], _ tag: UInt8) -> [UInt8] {
        var out = der
        out[0] = tag
        return out
    }
}
