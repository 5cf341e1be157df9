import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509

extension LabPKI {
    /// The leaf badssl.com's TLS servers share: `*.badssl.trustx.test` (and the lab's addresses),
    /// RSA-2048 so that RSA key exchange and DHE-RSA suites can use it, issued by Library Test CA.
    /// `key` is an RSA-2048 key the lab already made: generating another costs a start-up up to
    /// a second on a busy machine, and a lab's certificates may share a key.
    static func badsslWildcard(
        issuer: LabIssued, key: KeyPair, now: Timestamp, serverIPs: [String]
    ) throws(BuilderError) -> LabServedChain {
        let start = now.adding(seconds: -day)
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: "*.badssl.trustx.test"), publicKey: key, notBefore: start,
            notAfter: start.adding(seconds: 397 * day))
        // keyEncipherment: RSA key exchange encrypts the premaster secret to this key (RFC 5246 7.4.7.1).
        b.keyUsage = .init([.digitalSignature, .keyEncipherment])
        b.extendedKeyUsage = .init([.serverAuth])
        b.subjectAltNames = .init(
            [.dnsName("*.badssl.trustx.test")]
                + (try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }))
        return LabServedChain(chain: [try b.sign(issuerKey: issuer.key, issuer: issuer.certificate)], key: key)
    }
}
