import TrustSupport
import TrustX509

/// Writes and signs CRLs (RFC 5280 5) in process, for tests and the lab.
public struct RevocationListBuilder: Sendable {
    /// thisUpdate.
    public var thisUpdate: Timestamp
    /// nextUpdate; nil omits it.
    public var nextUpdate: Timestamp?
    /// Revoked serial numbers (content octets) with their revocation dates.
    public var revoked: [(serialNumber: [UInt8], date: Timestamp)] = []
    /// The cRLNumber; nil omits it (which RFC 5280 5.2.3 forbids).
    public var crlNumber: Int? = 1
    /// Entries with their entry extensions (reasonCode, certificateIssuer, any other), written
    /// after `revoked`.
    public var entries: [(serialNumber: [UInt8], date: Timestamp, extensions: [CertificateBuilder.RawExtension])] = []
    /// CRL extensions written after cRLNumber (issuingDistributionPoint, deltaCRLIndicator,
    /// freshestCRL, any other: `CRLExtensionBuilder`).
    public var extensions: [CertificateBuilder.RawExtension] = []
    /// Whether cRLNumber is marked critical, which RFC 5280 5.2.3 forbids.
    public var crlNumberCritical = false

    /// Creates a v2 CRL valid from `thisUpdate` to `nextUpdate`.
    public init(thisUpdate: Timestamp, nextUpdate: Timestamp?) {
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
    }

    static func write(_ extensions: [CertificateBuilder.RawExtension], _ w: inout DERWriter) {
        for x in extensions {
            w.sequence { w in
                w.oid(x.oid)
                if x.critical { w.boolean(true) }
                w.octetString(x.value)
            }
        }
    }

    /// Signs the CRL as `issuer` with `key` and decodes it.
    /// - Throws: `BuilderError`.
    public func sign(key: KeyPair, issuer: Certificate) throws(BuilderError) -> RevocationList {
        let algorithm = SignatureAlgorithm.standard(for: key.kind)
        let tbs = DERWriter.encode { w in
            w.sequence { w in
                w.integer(1)
                w.raw(algorithm.der)
                w.raw(issuer.subject.der)
                w.time(thisUpdate)
                if let nextUpdate { w.time(nextUpdate) }
                if !revoked.isEmpty || !entries.isEmpty {
                    w.sequence { w in
                        for entry in revoked {
                            w.sequence { w in
                                w.integer(magnitude: entry.serialNumber)
                                w.time(entry.date)
                            }
                        }
                        for entry in entries {
                            w.sequence { w in
                                w.integer(magnitude: entry.serialNumber)
                                w.time(entry.date)
                                if !entry.extensions.isEmpty { w.sequence { w in Self.write(entry.extensions, &w) } }
                            }
                        }
                    }
                }
                var all = extensions
                if let crlNumber {
                    all.insert(
                        CertificateBuilder.RawExtension(
                            oid: RevocationList.crlNumber, critical: crlNumberCritical,
                            value: DERWriter.encode { $0.integer(crlNumber) }), at: 0)
                }
                if !all.isEmpty {
                    w.contextSpecific(0) { w in w.sequence { w in Self.write(all, &w) } }
                }
            }
        }
        let signature = try key.sign(tbs, hash: algorithm.hash)
        let der = DERWriter.encode { w in
            w.sequence { w in
                w.raw(tbs)
                w.raw(algorithm.der)
                w.bitString(signature)
            }
        }
        do {
            return try RevocationList(der: der)
        } catch {
            throw .undecodable(error)
        }
    }
}
