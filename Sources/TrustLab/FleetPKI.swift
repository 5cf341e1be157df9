import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509

/// The certificates of the staging-fleet lessons, all under Library Test CA: the pool's three
/// nodes (a good leaf; last year's leaf for the same name and key, expired, as a node the
/// renewal missed keeps it; a leaf of an intermediate the node does not send) and the rotating
/// server's two leaves, each with a key of its own.
struct FleetPKI: Sendable {
    /// The rotating server's leaves, in turn order (made whatever the selection: a lesson pins
    /// the first).
    var rotating: [LabServedChain]
    var library: LabIssued
    var intermediate: LabIssued
    var serverIPs: [String]
    var now: Timestamp

    /// Builds the rotating server's leaves.
    /// - Parameters:
    ///   - library: Library Test CA, the lessons' anchor.
    ///   - intermediate: the intermediate below it that missing-intermediate's leaf names and
    ///     does not send (no AIA URL here either).
    ///   - serverIPs: the leaves' iPAddress SAN entries, after the pool's name.
    static func build(
        library: LabIssued, intermediate: LabIssued, now: Timestamp, serverIPs: [String]
    ) throws(BuilderError) -> FleetPKI {
        var fleet = FleetPKI(rotating: [], library: library, intermediate: intermediate, serverIPs: serverIPs, now: now)
        let start = now.adding(seconds: -LabPKI.day)
        fleet.rotating = [
            try fleet.leaf(host: nil, issuer: library, notBefore: start, days: 397),
            try fleet.leaf(host: nil, issuer: library, notBefore: start, days: 397),
        ]
        return fleet
    }

    /// What each node of the pool named `host` sends, in node order.
    func nodes(host: String) throws(BuilderError) -> [LabServedChain] {
        let day = LabPKI.day
        let start = now.adding(seconds: -day)
        let healthy = try leaf(host: host, issuer: library, notBefore: start, days: 397)
        // The expired node kept last year's certificate for the same key (renewed without a new
        // key): 397 days that ended a month ago. `trustx diff` calls the pair "same key".
        return [
            healthy,
            try leaf(
                host: host, issuer: library, notBefore: now.adding(seconds: -427 * day), days: 397, key: healthy.key),
            try leaf(host: host, issuer: intermediate, notBefore: start, days: 397),
        ]
    }

    private func leaf(
        host: String?, issuer: LabIssued, notBefore: Timestamp, days: Int64, key given: KeyPair? = nil
    ) throws(BuilderError) -> LabServedChain {
        let ips = try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }
        let key: KeyPair
        if let given { key = given } else { key = try KeyPair.generate(.ecP256) }
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: host ?? serverIPs[0]), publicKey: key, notBefore: notBefore,
            notAfter: notBefore.adding(seconds: days * LabPKI.day))
        b.keyUsage = .init([.digitalSignature])
        b.extendedKeyUsage = .init([.serverAuth])
        b.subjectAltNames = .init((host.map { [GeneralName.dnsName($0)] } ?? []) + ips)
        return LabServedChain(chain: [try b.sign(issuerKey: issuer.key, issuer: issuer.certificate)], key: key)
    }
}
