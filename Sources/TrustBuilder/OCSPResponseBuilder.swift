import TrustSupport
import TrustX509

/// Writes and signs OCSP responses (RFC 6960 4.2.1) about one certificate, for tests and the lab.
public struct OCSPResponseBuilder: Sendable {
    /// The status to assert.
    public enum Status: Hashable, Sendable {
        case good
        case revoked(Timestamp)
        case unknown
    }
    /// The status.
    public var status: Status
    /// thisUpdate (and producedAt).
    public var thisUpdate: Timestamp
    /// nextUpdate; nil omits it.
    public var nextUpdate: Timestamp?
    /// SCTs to carry in the single response's extensions (RFC 6962 3.3); none omits them.
    public var signedCertificateTimestamps: [SignedCertificateTimestamp] = []

    /// Creates a builder.
    public init(status: Status, thisUpdate: Timestamp, nextUpdate: Timestamp?) {
        self.status = status
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
    }

    /// A successful OCSPResponse about `certificate` issued by `issuer`, signed with `key` (the
    /// issuer's own, or a delegated responder's whose certificate goes in `responderCertificate`).
    /// CertID uses SHA-1, as responders do by default.
    /// - Throws: `BuilderError`.
    public func sign(
        certificate: Certificate, issuer: Certificate, key: KeyPair, responderCertificate: Certificate? = nil
    ) throws(BuilderError) -> [UInt8] {
        let algorithm = SignatureAlgorithm.standard(for: key.kind)
        let tbs = DERWriter.encode { w in
            w.sequence { w in
                // responderID byName [1]
                w.contextSpecific(1) { $0.raw((responderCertificate ?? issuer).subject.der) }
                OCSPResponseBuilder.generalizedTime(thisUpdate, &w)
                w.sequence { w in
                    w.sequence { w in
                        OCSPRequest.writeCertID(of: certificate, issuer: issuer, &w)
                        switch status {
                        case .good: w.element(tag: 0x80, content: [])
                        case .revoked(let t):
                            w.constructed(tag: 0xA1) { OCSPResponseBuilder.generalizedTime(t, &$0) }
                        case .unknown: w.element(tag: 0x82, content: [])
                        }
                        OCSPResponseBuilder.generalizedTime(thisUpdate, &w)
                        if let nextUpdate {
                            w.contextSpecific(0) { OCSPResponseBuilder.generalizedTime(nextUpdate, &$0) }
                        }
                        if !signedCertificateTimestamps.isEmpty {
                            let list = SignedCertificateTimestampList.encode(signedCertificateTimestamps.map(\.encoded))
                            w.contextSpecific(1) { w in
                                w.sequence { w in
                                    w.sequence { w in
                                        w.oid(OID(dotted: "1.3.6.1.4.1.11129.2.4.5")!)
                                        w.octetString(DERWriter.encode { $0.octetString(list) })
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let signature = try key.sign(tbs, hash: algorithm.hash)
        let basic = DERWriter.encode { w in
            w.sequence { w in
                w.raw(tbs)
                w.raw(algorithm.der)
                w.bitString(signature)
                if let responderCertificate {
                    w.contextSpecific(0) { w in w.sequence { $0.raw(responderCertificate.der) } }
                }
            }
        }
        return DERWriter.encode { w in
            w.sequence { w in
                w.element(tag: DERTag.enumerated, content: [0])
                w.contextSpecific(0) { w in
                    w.sequence { w in
                        w.oid(OCSPResponse.basicType)
                        w.octetString(basic)
                    }
                }
            }
        }
    }

    /// OCSP times are GeneralizedTime whatever the year (RFC 6960 4.2.1).
    static func generalizedTime(_ t: Timestamp, _ w: inout DERWriter) {
        let text = t.rfc3339.filter { $0 != "-" && $0 != ":" && $0 != "T" }
        w.element(tag: DERTag.generalizedTime, content: Array(text.utf8))
    }
}
