import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509

/// The certificates of the staging-fleet lessons, all under Library Test CA: the pool's three
/// nodes (a good leaf; last year's leaf for the same name and key, expired, as a node the
/// renewal missed keeps it; a leaf of an intermediate the node does not send) and the rotating
/// server's two leaves, each with a key of its own.
struct FleetPKI: Sendable {
    /// What each node of the pool sends, in node order.
    var nodes: [LabServedChain]
    /// The rotating server's leaves, in turn order.
    var rotating: [LabServedChain]

    /// Builds every chain of the group.
    /// - Parameters:
    ///   - library: Library Test CA, the lessons' anchor.
    ///   - intermediate: the intermediate below it that missing-intermediate's leaf names and
    ///     does not send (no AIA URL here either).
    ///   - serverIPs: the leaves' iPAddress SAN entries, after the pool's name.
    static func build(
        library: LabIssued, intermediate: LabIssued, now: Timestamp, serverIPs: [String]
    ) throws(BuilderError) -> FleetPKI {
        let day = LabPKI.day
        let ips = try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }
        func leaf(
            host: String?, issuer: LabIssued, notBefore: Timestamp, days: Int64, key given: KeyPair? = nil
        ) throws(BuilderError) -> LabServedChain {
            let key: KeyPair
            if let given { key = given } else { key = try KeyPair.generate(.ecP256) }
            var b = CertificateBuilder(
                subject: NameBuilder(commonName: host ?? serverIPs[0]), publicKey: key, notBefore: notBefore,
                notAfter: notBefore.adding(seconds: days * day))
            b.keyUsage = .init([.digitalSignature])
            b.extendedKeyUsage = .init([.serverAuth])
            b.subjectAltNames = .init((host.map { [GeneralName.dnsName($0)] } ?? []) + ips)
            return LabServedChain(chain: [try b.sign(issuerKey: issuer.key, issuer: issuer.certificate)], key: key)
        }
        let host = LabScenario.named("pool")?.host ?? "pool.trustx.test"
        let start = now.adding(seconds: -day)
        let healthy = try leaf(host: host, issuer: library, notBefore: start, days: 397)
        // The expired node kept last year's certificate for the same key (renewed without a new
        // key): 397 days that ended a month ago. `trustx diff` calls the pair "same key".
        let nodes = [
            healthy,
            try leaf(
                host: host, issuer: library, notBefore: now.adding(seconds: -427 * day), days: 397, key: healthy.key),
            try leaf(host: host, issuer: intermediate, notBefore: start, days: 397),
        ]
        let rotating = [
            try leaf(host: nil, issuer: library, notBefore: start, days: 397),
            try leaf(host: nil, issuer: library, notBefore: start, days: 397),
        ]
        return FleetPKI(nodes: nodes, rotating: rotating)
    }
}
